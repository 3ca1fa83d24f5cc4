// runqcheck differential oracle, test side: reads the operation sequences
// written by runqcheck's diff_gen, runs each through the real runtime
// (runtime.RunqcheckRun, or RunqcheckIdleRun for an idle-list sequence:
// runqcheck_export_test.go) and writes the outcomes
// in diff_gen's format. Environment: RUNQCHECK_DIFF_IN (sequences),
// RUNQCHECK_DIFF_OUT (outcomes). Not part of Go: added with `go test -overlay`.

package runtime_test

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

type runqcheckSeq struct {
	id, nprocs, ngs int
	nms             int // an idle-list sequence (iseq): its Ms; 0: a queue sequence
	ops             []runtime.RunqcheckOp
}

func TestRunqcheckDiff(t *testing.T) {
	in, out := os.Getenv("RUNQCHECK_DIFF_IN"), os.Getenv("RUNQCHECK_DIFF_OUT")
	if in == "" || out == "" {
		t.Skip("RUNQCHECK_DIFF_IN / RUNQCHECK_DIFF_OUT not set")
	}
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var seqs []*runqcheckSeq
	sc := bufio.NewScanner(f)
	atoi := func(s string) int {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("bad number %q", s)
		}
		return v
	}
	var cur *runqcheckSeq
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		switch {
		case len(w) == 0:
		case w[0] == "seq":
			cur = &runqcheckSeq{id: atoi(w[1]), nprocs: atoi(w[2]), ngs: atoi(w[3])}
		case w[0] == "iseq":
			cur = &runqcheckSeq{id: atoi(w[1]), nprocs: atoi(w[2]), nms: atoi(w[3])}
		case w[0] == "end":
			seqs = append(seqs, cur)
		default:
			cur.ops = append(cur.ops, runtime.RunqcheckOp{Kind: w[0], A: atoi(w[1]), B: atoi(w[2]), C: atoi(w[3])})
		}
	}
	var sb strings.Builder
	for _, s := range seqs {
		var rec []int64
		if s.nms > 0 {
			rec = runtime.RunqcheckIdleRun(s.nprocs, s.nms, s.ops)
		} else {
			rec = runtime.RunqcheckRun(s.nprocs, s.ngs, s.ops)
		}
		runqcheckFormat(s.id, rec, &sb)
	}
	if err := os.WriteFile(out, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runqcheckFormat(seqID int, rec []int64, sb *strings.Builder) {
	sb.WriteString("seq " + strconv.Itoa(seqID) + "\n")
	num := func(x int64) string { return strconv.FormatInt(x, 10) }
	for k := 0; k < len(rec); {
		i, kind := rec[k], rec[k+1]
		switch kind {
		case 1:
			sb.WriteString(num(i) + " get " + num(rec[k+2]) + " " + num(rec[k+3]) + "\n")
			k += 4
		case 2:
			sb.WriteString(num(i) + " steal " + num(rec[k+2]) + "\n")
			k += 3
		case 3, 7:
			n := int(rec[k+2])
			sb.WriteString(num(i) + map[int64]string{3: " drain", 7: " putbatch"}[kind])
			for j := 0; j < n; j++ {
				sb.WriteString(" " + num(rec[k+3+j]))
			}
			sb.WriteString("\n")
			k += 3 + n
		case 6:
			sb.WriteString(num(i) + " empty " + num(rec[k+2]) + "\n")
			k += 3
		case 8, 9:
			sb.WriteString(num(i) + map[int64]string{8: " globget ", 9: " globbatch "}[kind] +
				num(rec[k+2]) + "\n")
			k += 3
		case 4:
			n := int(rec[k+4])
			sb.WriteString("P" + num(rec[k+2]) + " runnext " + num(rec[k+3]) + " ring")
			for j := 0; j < n; j++ {
				sb.WriteString(" " + num(rec[k+5+j]))
			}
			sb.WriteString("\n")
			k += 5 + n
		case 5:
			n := int(rec[k+2])
			sb.WriteString("global")
			for j := 0; j < n; j++ {
				sb.WriteString(" " + num(rec[k+3+j]))
			}
			sb.WriteString("\n")
			k += 3 + n
		case 11, 12, 14, 15, 16:
			name := map[int64]string{11: " pidleput ", 12: " pidleget ", 14: " mput ", 15: " mget ",
				16: " mgetspec "}[kind]
			sb.WriteString(num(i) + name + num(rec[k+2]) + "\n")
			k += 3
		case 13:
			sb.WriteString(num(i) + " pidlegetspin " + num(rec[k+2]) + " " + num(rec[k+3]) + "\n")
			k += 4
		case 17, 19:
			n := int(rec[k+2])
			sb.WriteString(map[int64]string{17: "pidle", 19: "midle"}[kind])
			for j := 0; j < n; j++ {
				sb.WriteString(" " + num(rec[k+3+j]))
			}
			k += 3 + n
		case 18, 20:
			sb.WriteString(map[int64]string{18: " npidle ", 20: " nmidle "}[kind] + num(rec[k+2]) + "\n")
			k += 3
		default:
			panic("runqcheck: unknown record kind " + num(kind))
		}
	}
}
