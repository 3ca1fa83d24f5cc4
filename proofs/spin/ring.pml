/*
 * ring.pml -- one P's local run queue (ring + runnext) of Go's scheduler,
 * an owner and two thieves, under SPIN's interleaving semantics (sequential
 * consistency: every load sees the latest store; the C++ memory orders are
 * NOT modelled here, that is the Relacy tests' job).
 *
 * Models core/include/runqcheck/runq.hpp (go1.25 proc.go ~7089..7350):
 *   Owner : runqput (incl. next=true kicking runnext, and runqputslow when
 *           full), runqget (runnext first, then the ring)
 *   Thief : runqsteal -> runqgrab (torn-read guard, runnext steal when empty)
 * Step labels 'P1.. 'S1.. 'G1.. 'R1.. 'T1.. are those of proofs/CORRESPONDENCE.md.
 *
 * Granularity: every load, store or CAS of a shared variable (runqhead,
 * runqtail, runnext, a slot read by a thief) is its own step.  Purely local
 * work is folded into the neighbouring shared access, and so is ghost
 * bookkeeping (delivered[], onglobal[]) into the CAS that commits it.  The
 * owner reads its own slots in one step with its head load: only the owner
 * writes slots, so nothing can change them in between (likewise the
 * owner's slot reads in runqputslow and runqget are folded into its CAS).
 *
 * Small instance: CAP = 4 slots, 4-bit counters (WRAP = 16) starting at 14,
 * so head and tail wrap around during the run; Gs are 1..NG, 0 is nil.  The
 * Z3 lemmas are also run at --cap 4 --bits 4, the arithmetic of this size.
 * No ABA: at most NG (< WRAP) head advances happen in a run, so a thief's
 * head CAS cannot succeed across a full counter wrap (see grab.twin.cas_aba).
 *
 * Checked exhaustively (safety): every G that was created is delivered
 * (by runqget, runqsteal or the final drain) exactly once, nil is never
 * delivered, runqputslow's and runqsteal's throws are unreachable, and
 * 0 <= tail - head <= CAP at every instant.
 *
 * Bug variants (each must produce a trail):
 *   -DBUG_NO_GRAB_GUARD   runqgrab without the n > CAP/2 retry ('R5)
 *   -DBUG_GRAB_NO_CAS     runqgrab commits with a plain store of head ('R7)
 *   -DBUG_PUT_LE_CAP      runqput's not-full test is t - h <= CAP ('P3)
 *   -DBUG_GET_PLAIN_NEXT  runqget takes runnext with a plain store, not a CAS ('G1)
 */

#ifndef CAP
#define CAP 4                 /* len(pp.runq); 256 in Go */
#endif
#define HALF (CAP / 2)
#ifndef WRAP
#define WRAP 16               /* counters wrap at 2^4 here (2^32 in Go) */
#endif
#ifndef START
#define START 14              /* initial head == tail, near the wrap */
#endif
#ifndef NG
#define NG 5                  /* Gs 1..NG */
#endif
#ifndef PREFILL
#define PREFILL 0             /* Gs 1..PREFILL are in the ring before the run */
#endif
#ifndef STEALS
#define STEALS 2              /* runqsteal calls per thief; the last may steal runnext */
#endif

#define DIST(h, t)  (((t) + WRAP - (h)) % WRAP)   /* t - h in uint arithmetic */
#define ADV(x, k)   (((x) + (k)) % WRAP)           /* x + k in uint arithmetic */

byte runqhead = START;
byte runqtail = START;
byte runq[CAP];
byte runnext;                 /* 0 = nil */
byte onglobal[NG + 1];        /* how often each G was pushed on sched.runq */
bit  created[NG + 1];
byte delivered[NG + 1];
byte finished;                /* Owner and Thieves that have terminated */

/* A G is handed to an M to run: it must be real, created, and not run before. */
inline deliver(g) {
	assert(g >= 1 && g <= NG);
	assert(created[g]);
	assert(delivered[g] == 0);    /* no double delivery */
	delivered[g]++
}

/* Ghost clear of the k slots from counter x that a successful head CAS just
   consumed.  Go does not clear them (a thief may still read the stale G);
   here a stale read returns nil instead, which keeps the state space small.
   No error is lost: a consumer delivers what it read only if its CAS
   succeeded, and delivering nil fails deliver()'s first assertion just as a
   stale G would fail the double-delivery one. */
inline CLEAR(x, k) {
	j = 0;
	do :: j < k -> runq[ADV(x, j) % CAP] = 0; j++
	   :: else -> break od;
	j = 0
}

/* ---------------------------------------------------------------- owner */
proctype Owner() {
	byte g, old, h, t, n, j;
	byte batch[HALF + 1];
	byte nextg = PREFILL + 1;
	bit next, ok;

	do
	:: /* ---- runqput(g, next) ---- */
		atomic { nextg <= NG -> g = nextg; created[g] = 1; nextg++;
		         if :: next = 0 :: next = 1 fi;
		         if :: next -> old = runnext :: else fi };     /* 'P1 load runnext */
		if
		:: next ->
			do
			:: atomic {
				if
				:: runnext == old ->                     /* 'P1 runnext.cas(old, g) */
					runnext = g; ok = 1
				:: else ->
					old = runnext; ok = 0            /* retry: load runnext again */
				fi };
				if :: ok -> break :: else fi
			od;
			if
			:: old == 0 -> goto putDone
			:: else -> g = old                              /* kick old runnext to the ring */
			fi
		:: else
		fi;
retryPut:
		/* 'P2 h = load-acquire head; t = own tail (only the owner writes it) */
		atomic { h = runqhead; t = runqtail };
#ifdef BUG_PUT_LE_CAP
		if
		:: DIST(h, t) <= CAP ->
#else
		if
		:: DIST(h, t) < CAP ->                                   /* 'P3 */
#endif
			runq[t % CAP] = g;                               /* 'P4 */
			runqtail = ADV(t, 1)                             /* 'P5 store-release tail */
		:: else ->
			/* 'P6 runqputslow(g, h, t) */
			n = DIST(h, t) / 2;
			assert(n == HALF);   /* 'S1 throw("runqputslow: queue is not full") */
			atomic {
				/* 'S2 copy the n oldest.  Only the owner writes slots, so
				   copying them in the CAS step reads the same values. */
				j = 0;
				do :: j < n -> batch[j] = runq[ADV(h, j) % CAP]; j++
				   :: else -> break od;
				if
				:: runqhead == h ->                      /* 'S3 CasRel head h -> h+n */
					runqhead = ADV(h, n); CLEAR(h, n); ok = 1;
					batch[n] = g;
					/* 'S4 globrunqputbatch(batch + g) under sched.lock.  The
					   batch is private between 'S3 and 'S4, so one step. */
					j = 0;
					do :: j <= n -> onglobal[batch[j]]++; j++
					   :: else -> break od
				:: else -> ok = 0
				fi;
				j = 0; do :: j <= HALF -> batch[j] = 0; j++ :: else -> break od; j = 0
			};
			if
			:: !ok -> goto retryPut   /* a consumer moved head: now not full */
			:: else
			fi
		fi;
putDone:	/* forget dead locals so that equal states are stored once */
		atomic { g = 0; old = 0; h = 0; t = 0; n = 0; ok = 0; next = 0 }

	:: /* ---- runqget ---- */
		old = runnext;                                           /* 'G1 load runnext */
		if
		:: old != 0 ->
#ifdef BUG_GET_PLAIN_NEXT
			runnext = 0;
			atomic { deliver(old); ok = 1 };
#else
			atomic {
				if
				:: runnext == old ->                     /* 'G1 runnext.cas(old, 0) */
					runnext = 0; deliver(old); ok = 1
				:: else -> ok = 0   /* only a thief can have taken it: not retried */
				fi };
#endif
			if
			:: ok -> goto getDone
			:: else
			fi
		:: else
		fi;
		do
		:: atomic { h = runqhead; t = runqtail };          /* 'G2 load-acquire head, own tail */
			if
			:: t == h -> break                                  /* empty */
			:: else
			fi;
			atomic {
				if
				:: runqhead == h ->                      /* 'G4 CasRel head h -> h+1 */
					/* 'G3 read the slot: own slots are stable, so read here */
					g = runq[h % CAP];
					runqhead = ADV(h, 1); CLEAR(h, 1); deliver(g); ok = 1
				:: else -> ok = 0
				fi };
			if :: ok -> break :: else fi
		od;
getDone:	atomic { g = 0; old = 0; h = 0; t = 0; ok = 0 }

	:: break
	od;
	finished++
}

/* ---------------------------------------------------------------- thief */
proctype Thief() {
	byte h, t, n, j, next, k;
	byte batch[HALF];             /* the thief's ring half that runqgrab fills */
	bit ok, stealNext;

	do
	:: k < STEALS ->
		/* ---- runqsteal -> runqgrab(victim, batch, stealNext) ---- */
grab:
		atomic { stealNext = (k == STEALS - 1);
		         h = runqhead };                                 /* 'R1 load-acquire head */
		atomic { t = runqtail;                                   /* 'R2 load-acquire tail */
		         n = DIST(h, t); n = n - n / 2 };                /* 'R3 ceil half */
		if
		:: n == 0 ->
			if
			:: stealNext ->
				next = runnext;                          /* 'R4 load runnext */
				if
				:: next != 0 ->
					/* Go sleeps ~3us first if the victim runs: timing is not
					   modelled, every interleaving is explored anyway. */
					atomic {
						if
						:: runnext == next ->            /* 'R4 runnext.cas(next, 0) */
							runnext = 0; deliver(next); ok = 1
						:: else -> ok = 0
						fi };
					if
					:: !ok -> goto grab
					:: else
					fi
				:: else
				fi
			:: else
			fi
		:: else ->
#ifndef BUG_NO_GRAB_GUARD
			if
			:: n > HALF -> goto grab                         /* 'R5 inconsistent h, t */
			:: else
			fi;
#endif
			assert(n <= HALF);   /* the copy fits: runqsteal's room check ('T3) relies on it */
			j = 0;               /* 'R6 each slot read is a step: the owner may rewrite it */
			do
			:: j < n -> batch[j] = runq[ADV(h, j) % CAP]; j++
			:: else -> break
			od;
#ifdef BUG_GRAB_NO_CAS
			runqhead = ADV(h, n);
			atomic { j = 0; do :: j < n -> deliver(batch[j]); j++ :: else -> break od };
#else
			/* 'R7 CasRel head h -> h+n.  On success runqsteal ('T1..'T4) runs the
			   last G and publishes the rest in the thief's own ring, to run
			   later; nobody steals from a thief here, so that equals
			   delivering all n in this step. */
			atomic {
				if
				:: runqhead == h ->
					runqhead = ADV(h, n); CLEAR(h, n); ok = 1;
					j = 0;
					do :: j < n -> deliver(batch[j]); j++ :: else -> break od
				:: else -> ok = 0
				fi };
			if
			:: !ok -> goto grab
			:: else
			fi
#endif
		fi;
		/* forget dead locals so that equal states are stored once */
		atomic { k++; h = 0; t = 0; n = 0; next = 0; ok = 0;
		         j = 0; do :: j < HALF -> batch[j] = 0; j++ :: else -> break od; j = 0 }
	:: else -> break
	od;
	finished++
}

/* Ring invariant at every instant: 0 <= tail - head <= CAP. */
active proctype RingInvariant() {
end:	atomic { !(DIST(runqhead, runqtail) <= CAP) -> assert(false) }
}

/* Start the three processes, wait for them, then drain what is left
   sequentially (no concurrency: bookkeeping, not a check of runqdrain) and
   check that every created G was delivered exactly once. */
init {
	byte i, g;
	atomic {
		g = 1;
		do :: g <= PREFILL -> created[g] = 1; runq[runqtail % CAP] = g;
		                      runqtail = ADV(runqtail, 1); g++
		   :: else -> break od;
		g = 0;
		run Owner(); run Thief(); run Thief()
	};
	finished == 3;
	atomic {
		if :: runnext != 0 -> deliver(runnext); runnext = 0 :: else fi;
		i = runqhead;
		do
		:: i != runqtail -> g = runq[i % CAP]; deliver(g); i = ADV(i, 1)
		:: else -> break
		od;
		g = 1;
		do
		:: g <= NG ->
			do :: onglobal[g] > 0 -> deliver(g); onglobal[g]-- :: else -> break od;
			assert(delivered[g] == created[g]);   /* conservation: none lost */
			g++
		:: else -> break
		od
	}
}
