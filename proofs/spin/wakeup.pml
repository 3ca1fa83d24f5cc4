/*
 * wakeup.pml -- the spinning-M / wakep / needspinning protocol of go1.25
 * proc.go ("Worker thread parking/unparking" at the top of the file and
 * the "Delicate dance" in findRunnable), under SPIN's interleaving
 * semantics (sequential consistency, so every #StoreLoad barrier holds).
 *
 * Models the stress scheduler (stress/, pending): wakep, startm, stopm,
 * resetspinning, findRunnable, stealWork, pidleget, pidlegetSpinning,
 * pidleput, becomeSpinning, exitsyscall.  Step numbers follow the top
 * comment of proc.go:
 *   submission:  sub1 submit work, sub2 #StoreLoad, sub3 check nmspinning (wakep)
 *   spinning -> non-spinning:  drop1 decrement nmspinning, drop2 #StoreLoad,
 *                              drop3 check all run queues again
 *
 * Configuration (NP = 2 Ps, 3 Ms at the start, more only through newm):
 *   M0 runs the submitter's G on P0 forever (it never re-enters the
 *      scheduler, like a G that never blocks with no sysmon preemption).
 *      It readies NSUB Gs: runqput on P0 (or, when that overflows,
 *      runqputslow's push to the global queue), each followed by wakep.
 *   M1 starts parked (on the midle list); P1 starts idle.
 *   M2 starts in a syscall without a P, with one G; exitsyscall takes an
 *      idle P or puts the G on the global queue and parks (exitsyscall0).
 * So Gs can only run on P1, and only if the wakeup protocol gets an M there.
 *
 * Abstractions: run queues are counters (ring.pml checks the ring itself)
 * and runqsteal takes ceil(half) atomically; stealWork makes one pass, not
 * four (extra passes only re-read the same queues); no timers, netpoll, GC,
 * or sysmon; a G runs to completion in one step; newm runs a fresh M process.
 *
 * Properties (LTL, checked with weak fairness, -f):
 *   all_run          <> (ran == TOTAL): every readied G eventually runs.
 *   work_conserving  [] (queued && some P idle -> <> (queue empty || no P idle)).
 * Weak fairness is justified because every process models an OS thread: a
 * thread that stays runnable is eventually scheduled.  Without it SPIN could
 * starve an M that is about to take the work, which is not a lost wakeup.
 *
 * Results (see docs/proofs.md for the numbers):
 *   NSUB=1: both properties hold for the go1.25 protocol as modelled.
 *   NSUB=2: all_run FAILS for the go1.25 protocol as modelled.  The trail:
 *     a spinning M's becomeSpinning (nmspinning++ ... needspinning = 0)
 *     interleaves with a submitter's wakep whose CAS 0->1 won but found no
 *     idle P: wakep's needspinning = 1 lands between the M's two stores and
 *     is overwritten.  The M steals one of the two queued Gs, resetspinning's
 *     wakep sees wakep's transient nmspinning == 1 and does nothing, the M,
 *     now non-spinning, skips stealing (2*nmspinning < gomaxprocs - npidle is
 *     false), drops its P with needspinning == 0 and parks; then wakep
 *     decrements nmspinning.  The second G waits on P0 while P1 is idle
 *     until P0's G yields or is preempted (sysmon, 10 ms), which this model
 *     omits on purpose.  This is a finding of the model, to be reviewed
 *     against proc.go, not a confirmed Go bug.
 *   -DFIX_WAKEP_KEEP_NEEDSPINNING (wakep re-arms needspinning after its
 *     failed pidlegetSpinning, under sched.lock): both properties hold at
 *     NSUB=2 and NSUB=3.  A candidate, not something Go does.
 *
 * Bug variants (each must produce an acceptance-cycle trail; the test runs
 * them at NSUB=1, where the go1.25 model has no error):
 *   -DBUG_SUBMIT_NO_WAKEP  ready() does not call wakep after runqput
 *   -DBUG_NO_RECHECK       a spinning M drops nmspinning and parks without
 *                          rechecking the queues (drop3 missing)
 *   -DBUG_NO_NEEDSPINNING  a non-spinning M drops its P without checking
 *                          sched.needspinning (the race fixed for issue 45867)
 */

#define NP       2            /* gomaxprocs */
#ifndef NSUB
#define NSUB     1            /* Gs readied by the submitter (2: see Results above) */
#endif
#define TOTAL    (NSUB + 1)   /* + the G returning from the syscall */
#define MAXM     5            /* M slots; newm asserts it stays below */
#define NOP      255          /* no P */
#define NOM      255          /* no M */
#define HALFCAP  128          /* int32(len(pp.runq)) / 2, globrunqgetbatch's request */

byte lrq[NP];         /* local run queue lengths (runnext included) */
byte grq;             /* sched.runq.size */
bit  idle[NP];        /* P on the pidle list (idlepMask) */
byte npidle;          /* sched.npidle */
byte nmspinning;      /* sched.nmspinning */
bit  needspinning;    /* sched.needspinning */
bit  schedlock;       /* sched.lock */
bit  mparked[MAXM];   /* M on the midle list (mput) */
byte nextp[MAXM];     /* m.nextp handed over by startm / newm */
bit  mspin[MAXM];     /* m.spinning as set by startm */
byte nm;              /* M slots used */
byte submitted;       /* Gs readied by M0 */
byte ran;             /* Gs that have run */

#define LOCK    atomic { schedlock == 0 -> schedlock = 1 }
#define UNLOCK  schedlock = 0

/* pidleget (sched.lock held): take an idle P, or NOP */
inline pidleget(pp) {
	pp = 0;
	do
	:: pp < NP && idle[pp] -> idle[pp] = 0; npidle--; break
	:: pp < NP && !idle[pp] -> pp++
	:: pp >= NP -> pp = NOP; break
	od
}

/* pidlegetSpinning (sched.lock held): as pidleget, but if no P is idle
   set needspinning so that a non-spinning M about to drop its P spins instead */
inline pidlegetSpinning(pp) {
	pidleget(pp);
	if :: pp == NOP -> needspinning = 1 :: else fi
}

/* pidleput (sched.lock held) */
inline pidleput(pp) {
	assert(lrq[pp] == 0);     /* throw("pidleput: P has non-empty run queue") */
	idle[pp] = 1; npidle++
}

/* globrunqgetbatch(len(runq)/2) (sched.lock held): n = min(128, size, size/NP + 1) */
inline globrunqgetbatch(n) {
	n = grq / NP + 1;
	if :: n > grq -> n = grq :: else fi;
	if :: n > HALFCAP -> n = HALFCAP :: else fi;
	grq = grq - n
}

inline becomeSpinning() {
	spinning = 1; nmspinning++; needspinning = 0
}

/* startm(pp, spin): hand pp to a parked M, or start a new one (newm) */
inline startm(pp, spin) {
	LOCK;
	atomic {                                  /* mget */
		nmp = 0;
		do
		:: nmp < nm && mparked[nmp] -> mparked[nmp] = 0; break
		:: nmp < nm && !mparked[nmp] -> nmp++
		:: nmp >= nm -> nmp = NOM; break
		od
	};
	UNLOCK;
	if
	:: nmp == NOM ->                          /* newm(fn, pp, id) */
		atomic { assert(nm < MAXM); mspin[nm] = spin; run M(nm, pp, spin, 0); nm++ }
	:: else ->                                /* nmp.spinning = spin; nextp; notewakeup */
		atomic { assert(!spin || lrq[pp] == 0);   /* throw("startm: p has runnable gs") */
		         mspin[nmp] = spin; nextp[nmp] = pp }
	fi;
	nmp = 0
}

/* wakep: start a spinning M only if there is an idle P and no spinning M */
inline wakep() {
	if
	:: nmspinning != 0 -> skip                                  /* sub3 */
	:: else ->
		atomic { if :: nmspinning == 0 -> nmspinning = 1; ok = 1  /* CAS 0 -> 1 */
		            :: else -> ok = 0 fi };
		if
		:: ok ->
			LOCK;
			pidlegetSpinning(pp);
			if
			:: pp == NOP ->
				assert(nmspinning > 0); nmspinning--;
#ifdef FIX_WAKEP_KEEP_NEEDSPINNING
				needspinning = 1;   /* re-arm: a concurrent becomeSpinning may have cleared it */
#endif
				UNLOCK
			:: else -> UNLOCK; startm(pp, 1)
			fi
		:: else
		fi
	fi;
	pp = 0; ok = 0
}

/* -------------------------------------------------------------- an M */
proctype M(byte id; byte p0; bit spin0; bit insyscall) {
	byte p = p0;          /* m.p */
	bit  spinning = spin0;
	byte pp, n, i, nmp, ns, ni;
	bit  ok, got;
	bit  snap[NP];        /* idlepMask snapshot taken before dropping the P */

	if
	:: insyscall -> goto exitsyscall
	:: !insyscall && p == NOP -> goto park    /* starts on the midle list */
	:: else -> goto top
	fi;

exitsyscall:
	/* exitsyscallfast_pidle: lock; pidleget; unlock */
	LOCK; pidleget(pp); UNLOCK;
	if
	:: pp != NOP -> p = pp; pp = 0; goto execute
	:: else
	fi;
	/* exitsyscall0: lock; pidleget; if none, globrunqput(gp); unlock; stopm */
	LOCK;
	pidleget(pp);
	if
	:: pp == NOP -> grq++; UNLOCK; pp = 0; goto stopm
	:: else -> UNLOCK; p = pp; pp = 0; goto execute
	fi;

top:	/* ---- findRunnable ---- */
	/* local runq (runqget) */
	atomic { if :: lrq[p] > 0 -> lrq[p]--; got = 1 :: else -> got = 0 fi };
	if :: got -> got = 0; goto found :: else fi;

	/* global runq: if !sched.runq.empty() { lock; globrunqgetbatch; unlock; runqputbatch } */
	if
	:: grq > 0 ->
		LOCK; globrunqgetbatch(n); UNLOCK;
		if
		:: n > 0 -> lrq[p] = lrq[p] + n - 1; n = 0; goto found
		:: else
		fi
	:: else
	fi;

	/* spinning: if mp.spinning || 2*nmspinning < gomaxprocs - npidle */
	ns = nmspinning;
	ni = npidle;
	if
	:: spinning || 2 * ns < NP - ni ->
		ns = 0; ni = 0;
		if :: !spinning -> becomeSpinning() :: else fi;
		/* stealWork: runqsteal from every other P that is not idle */
		i = 0;
		do
		:: i < NP ->
			atomic {
				if
				:: i != p && !idle[i] && lrq[i] > 0 ->
					n = lrq[i] - lrq[i] / 2; lrq[i] = lrq[i] - n;
					lrq[p] = lrq[p] + n - 1; got = 1
				:: else -> got = 0
				fi;
				i++ };
			if :: got -> got = 0; n = 0; i = 0; goto found :: else fi
		:: else -> i = 0; break
		od
	:: else -> ns = 0; ni = 0
	fi;

	/* nothing found: drop the P */
	atomic { i = 0; do :: i < NP -> snap[i] = idle[i]; i++ :: else -> i = 0; break od };
	LOCK;
	if
	:: grq > 0 ->
		globrunqgetbatch(n); UNLOCK;
		lrq[p] = lrq[p] + n - 1; n = 0; goto found
	:: else
	fi;
#ifndef BUG_NO_NEEDSPINNING
	if
	:: !spinning && needspinning ->           /* see the "Delicate dance" */
		becomeSpinning(); UNLOCK; goto top
	:: else
	fi;
#endif
	pidleput(p); p = NOP;                     /* releasep; pidleput */
	UNLOCK;

	if
	:: spinning ->
		spinning = 0;
drop1:		atomic { assert(nmspinning > 0); nmspinning-- };  /* drop1; drop2 is SC */
#ifndef BUG_NO_RECHECK
drop3:		/* check the global queue ... */
		LOCK;
		if
		:: grq > 0 ->
			pidlegetSpinning(pp);
			if
			:: pp != NOP ->
				globrunqgetbatch(n); UNLOCK;
				lrq[pp] = lrq[pp] + n - 1; n = 0;
				p = pp; pp = 0; becomeSpinning(); goto found
			:: else
			fi
		:: else
		fi;
		UNLOCK;
		/* ... and every P's queue (checkRunqsNoP) */
		i = 0;
		do
		:: i < NP ->
			if
			:: !snap[i] && lrq[i] > 0 ->
				LOCK; pidlegetSpinning(pp); UNLOCK;
				if
				:: pp != NOP -> p = pp; pp = 0; i = 0; becomeSpinning(); goto top
				:: else -> i = 0; break   /* no P: don't check the rest */
				fi
			:: else -> i++
			fi
		:: else -> i = 0; break
		od
#endif
	:: else
	fi;

stopm:	/* stopm: mput; mPark; acquirep(nextp) */
	atomic { i = 0; do :: i < NP -> snap[i] = 0; i++ :: else -> i = 0; break od };
	LOCK; mparked[id] = 1; UNLOCK;
park:
end_park:
	atomic { nextp[id] != NOP -> p = nextp[id]; nextp[id] = NOP; spinning = mspin[id] };
	goto top;

found:	/* schedule(): a spinning M that found work stops spinning and wakes another */
	if
	:: spinning ->                            /* resetspinning */
		spinning = 0;
		atomic { assert(nmspinning > 0); nmspinning-- };
		wakep()
	:: else
	fi;
execute:
	ran++;                                    /* the G runs to completion */
	goto top
}

/* -------------------------------------------------------------- M0 */
proctype Submitter() {
	byte pp, nmp;
	bit  ok;
	do
	:: submitted < NSUB ->
sub1:		if
		:: atomic { lrq[0]++; submitted++ }         /* ready(): runqput on P0 */
		:: LOCK; atomic { grq++; submitted++ }; UNLOCK  /* runqput overflowed: runqputslow */
		fi;
		/* sub2: #StoreLoad (SC here); sub3: check nmspinning */
#ifndef BUG_SUBMIT_NO_WAKEP
		wakep()
#endif
	:: else -> break
	od
	/* the submitter's G keeps running: P0 never enters the scheduler again */
}

init {
	atomic {
		byte i;
		i = 0;
		do :: i < MAXM -> nextp[i] = NOP; i++ :: else -> break od;
		idle[1] = 1; npidle = 1;        /* P1 idle; P0 held by M0 */
		mparked[1] = 1;                 /* M1 parked */
		nm = 3;                         /* M0, M1, M2 */
		run Submitter();
		run M(1, NOP, 0, 0);
		run M(2, NOP, 0, 1)
	}
}

#define QUEUED (lrq[0] + lrq[1] + grq)

/* Every readied G eventually runs. */
ltl all_run { <> (ran == TOTAL) }

/* Work conservation: while a G is queued and a P is idle, eventually the
   queue empties or no P is idle. */
ltl work_conserving { [] ((QUEUED > 0 && npidle > 0) -> <> (QUEUED == 0 || npidle == 0)) }
