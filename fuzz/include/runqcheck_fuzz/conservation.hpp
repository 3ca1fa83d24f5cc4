// runqcheck_fuzz/conservation.hpp — where in the port a conservation failure's G went
// (exec.hpp: "conservation (...) g=N delivered=D put=P"): one rule for the two recorders
// that say it, Relacy's (trace.hpp, over its events) and the exploring engine's picture
// (tests/explore/picture.hpp, over its rows), each in its own words. The picks:
//  - pick_lost, a G delivered less often than put: the port's last store of its pointer,
//    then the first read of that location after it: one that read the store and did not
//    deliver it (kept); one that read an older value though it came after the store
//    (read_older: the hand-over that should have ordered them is the recorder's); one
//    that read what overwrote it (overwritten, with the write of the reader's own
//    operation that gave the location up, where the overwriting thread read it first:
//    that read came late). No read: a later store over it (overwritten_unread), or none
//    (unread). No store of the G at all: the operation that put it and its last access
//    (dropped: a CAS that failed and nothing stored the G after it).
//  - pick_twice, a G delivered more often than put: each operation's first read of its
//    pointer (takes), then the first read of it made though a newer write had replaced it
//    (replaced), else one made after its own operation gave the location up (read_late).
//  - lost_update: the first plain store over another thread's write made after the value
//    its own operation's load read (a CAS written as a load and a store); either story
//    above often starts there.
// V is hand_over.hpp's view (rf, thread, op, reads, same_obj) with size(), port(i) (an
// access of the port: a thread's, not the harness's or a hook's, not a mark), writes(i),
// wrote(i, g) (i wrote G g's pointer), got(i, g) (read i read it), names(i, g) (i is the
// mark of an operation whose text names g). Indices are in an order of po ∪ rf, each
// thread's in program order.
#pragma once

#include <array>

namespace runqcheck::fuzz {

// s's thread's last read of s's object in s's operation before s, or -1.
template <class V>
int last_read(const V& v, int s) {
  int r = -1;
  for (int k = 0; k < s; k++)
    if (v.thread(k) == v.thread(s) && v.op(k) == v.op(s) && v.reads(k) && v.same_obj(k, s))
      r = k;
  return r;
}

// Another thread's write to s's object between the write that read r read and s, the first;
// -1 if none.
template <class V>
int written_between(const V& v, int r, int s) {
  for (int w = v.rf(r) + 1; w < s; w++)
    if (w >= 0 && v.writes(w) && v.same_obj(w, s) && v.thread(w) != v.thread(s) &&
        v.thread(w) >= 0)
      return w;
  return -1;
}

// The first lost update: a plain store of the port to an object its thread's operation
// read before, with another thread's write to it between the write that read read and the
// store. Meaningful where a write's index is its place in its object's order (Relacy's
// recording; the picture's rows in an SC order). -1 if none.
template <class V>
int lost_update(const V& v) {
  for (int s = 0; s < v.size(); s++) {
    if (!v.port(s) || !v.writes(s) || v.reads(s)) continue;
    const int r = last_read(v, s);
    if (r >= 0 && written_between(v, r, s) >= 0) return s;
  }
  return -1;
}

// Read r came after its own operation gave the location up: an earlier write of its
// operation that w's thread read before w (w overwrote what r meant to read). That write,
// or -1.
template <class V>
int given_up(const V& v, int r, int w) {
  for (int c = 0; c < r; c++) {
    if (v.thread(c) != v.thread(r) || v.op(c) != v.op(r) || !v.writes(c) || !v.port(c))
      continue;
    for (int j = 0; j < w; j++)
      if (v.thread(j) == v.thread(w) && v.reads(j) && v.rf(j) == c) return c;
  }
  return -1;
}

enum class lost_kind { none, dropped, kept, read_older, overwritten, overwritten_unread, unread };

struct lost_pick {
  lost_kind kind = lost_kind::none;
  int store = -1;  // the port's last store of the G
  int read = -1;   // kept, read_older, overwritten: the read after it
  int over = -1;   // overwritten(_unread): the write over it
  int gave = -1;   // overwritten: the reader's own write that gave the location up, or -1
  int mark = -1;   // dropped: the mark of the operation that put the G
  int last = -1;   // dropped: that operation's last access
};

template <class V, class G>
lost_pick pick_lost(const V& v, const G& g) {
  lost_pick p;
  for (int i = 0; i < v.size(); i++)
    if (v.port(i) && v.writes(i) && v.wrote(i, g)) p.store = i;
  if (p.store < 0) {
    for (int m = 0; m < v.size(); m++) {
      if (!v.names(m, g)) continue;
      for (int k = m + 1; k < v.size(); k++)
        if (v.thread(k) == v.thread(m) && v.op(k) == v.op(m) && v.port(k)) p.last = k;
      if (p.last >= 0) p.kind = lost_kind::dropped, p.mark = m;
      return p;
    }
    return p;
  }
  const int w = p.store;
  for (int i = w + 1; i < v.size(); i++) {
    if (!v.port(i) || !v.reads(i) || !v.same_obj(i, w)) continue;
    p.read = i;
    if (v.rf(i) == w) p.kind = lost_kind::kept;
    else if (v.rf(i) < w) p.kind = lost_kind::read_older;
    else p.kind = lost_kind::overwritten, p.over = v.rf(i), p.gave = given_up(v, i, v.rf(i));
    return p;
  }
  for (int i = w + 1; i < v.size(); i++)
    if (v.port(i) && v.writes(i) && v.same_obj(i, w)) {
      p.kind = lost_kind::overwritten_unread;
      p.over = i;
      return p;
    }
  p.kind = lost_kind::unread;
  return p;
}

enum class twice_kind { none, takes_only, replaced, read_late };

struct twice_pick {
  twice_kind kind = twice_kind::none;
  std::array<int, 16> takes{};  // each operation's first read of the G's pointer, in order
  int ntakes = 0;
  int read = -1;  // replaced, read_late: the read to blame
  int over = -1;  // replaced: the write that had replaced what it read; read_late: the
                  // write it read, made after that write's thread read `gave`
  int gave = -1;  // read_late: the reader's own write that gave the location up
};

template <class V, class G>
twice_pick pick_twice(const V& v, const G& g) {
  twice_pick p;
  int first = -1;
  for (int i = 0; i < v.size(); i++) {
    if (!v.port(i) || !v.reads(i) || !v.got(i, g)) continue;
    bool seen = false;
    for (int k = 0; k < p.ntakes && !seen; k++)
      seen = v.thread(p.takes[k]) == v.thread(i) && v.op(p.takes[k]) == v.op(i);
    if (seen) continue;
    if (first < 0) first = i;
    if (p.ntakes < static_cast<int>(p.takes.size())) p.takes[p.ntakes++] = i;
  }
  if (first < 0) return p;
  p.kind = twice_kind::takes_only;
  auto reads_g = [&](int i) { return v.port(i) && v.reads(i) && v.got(i, g); };
  for (int i = first; i < v.size(); i++) {
    if (!reads_g(i)) continue;
    int w = -1;  // the latest write to its location before it
    for (int j = i - 1; j >= 0 && w < 0; j--)
      if (v.writes(j) && v.same_obj(j, i)) w = j;
    if (w >= 0 && w > v.rf(i)) {
      p.kind = twice_kind::replaced, p.read = i, p.over = w;
      return p;
    }
  }
  for (int i = first; i < v.size(); i++) {
    if (!reads_g(i) || v.rf(i) < 0 || !v.writes(v.rf(i))) continue;
    if (int c = given_up(v, i, v.rf(i)); c >= 0) {
      p.kind = twice_kind::read_late, p.read = i, p.over = v.rf(i), p.gave = c;
      return p;
    }
  }
  return p;
}

}  // namespace runqcheck::fuzz
