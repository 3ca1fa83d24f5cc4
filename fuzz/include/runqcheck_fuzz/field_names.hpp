// runqcheck_fuzz/field_names.hpp — the field a port's source line accesses,
// for the failure pictures' names of a port's own fields ("P0.tail", not
// "P0+8 atomic"): the engine's picture (tests/explore/picture.hpp) reads the
// line of an access it cannot name otherwise, and Relacy's recorder after the
// run (recorder::resolve_fields: inside a Relacy run this file's allocations
// are a leak to Relacy). A guess from the text: one field named on the line,
// or none.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace runqcheck::fuzz {

// The field a port's source line accesses: the one identifier X of
// `X.load(`, `X.store(`, `X.fetch_add(` ... (C++), or the last identifier of
// an `atomic_...(&...X` call's first argument (C11); "X[]" where X is indexed
// there (`X[i]`, or an accessor `X(i)`). "" where the line names none or more
// than one.
inline std::string field_of_line(std::string l) {
  for (std::size_t c = l.find("/*"); c != std::string::npos; c = l.find("/*", c))
    l.erase(c, l.find("*/", c) == std::string::npos ? std::string::npos
                                                     : l.find("*/", c) + 2 - c);
  if (std::size_t c = l.find("//"); c != std::string::npos) l.erase(c);  // comments out
  auto ident = [&](std::size_t end, std::size_t& begin) {  // the identifier ending at end
    begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(l[begin - 1])) ||
                         l[begin - 1] == '_'))
      begin--;
    return l.substr(begin, end - begin);
  };
  auto before = [&](std::size_t k) {  // X or X[...] ending just before k
    std::size_t e = k, b = 0;
    while (e > 0 && l[e - 1] == ' ') e--;
    bool indexed = e > 0 && (l[e - 1] == ']' || l[e - 1] == ')');  // x[i], or cell(i)
    if (indexed) {
      char close = l[e - 1], open = close == ']' ? '[' : '(';
      int depth = 0;
      do {
        depth += l[e - 1] == close ? 1 : l[e - 1] == open ? -1 : 0;
        e--;
      } while (e > 0 && depth > 0);
    }
    std::string x = ident(e, b);
    bool name = !x.empty() && !std::isdigit(static_cast<unsigned char>(x[0]));
    return name ? x + (indexed ? "[]" : "") : std::string();
  };
  std::vector<std::string> found;
  static constexpr const char* members[] = {
      ".load(", ".store(", ".exchange(", ".compare_exchange_weak(",
      ".compare_exchange_strong(", ".fetch_add(", ".fetch_sub(", ".fetch_or(",
      ".fetch_and(", ".fetch_xor("};
  for (const char* m : members)
    for (std::size_t k = l.find(m); k != std::string::npos; k = l.find(m, k + 1))
      if (std::string x = before(k); !x.empty()) found.push_back(x);
  for (std::size_t k = l.find("atomic_"); k != std::string::npos; k = l.find("atomic_", k + 1)) {
    std::size_t open = l.find('(', k), amp = l.find_first_not_of(' ', open + 1);
    if (open == std::string::npos || amp == std::string::npos || l[amp] != '&') continue;
    std::size_t end = l.find_first_of(",)", amp);
    while (end != std::string::npos && l.find('[', amp) < end && l.find(']', amp) > end)
      end = l.find_first_of(",)", end + 1);  // a comma inside an index
    if (end != std::string::npos)
      if (std::string x = before(end); !x.empty()) found.push_back(x);
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found.size() == 1 ? found[0] : "";
}

// The name of the field at byte offset off of owner ("P1") that a source line
// names `field` (field_of_line's): "P1.tail"; an element of an array or an
// accessor ("ring[]"), or a field the lines name at more than one offset
// (a struct's field in an array of structs: `cells[i].stamp`), with its
// offset, "P1.ring@16", "P1.stamp@40". shared: the offsets it is met at.
inline std::string field_name(const std::string& owner, const std::string& field, std::size_t off,
                              std::size_t shared) {
  bool element = !field.empty() && field.back() == ']';
  std::string base = element ? field.substr(0, field.size() - 2) : field;
  return owner + "." + base + (element || shared > 1 ? "@" + std::to_string(off) : "");
}
// How many offsets in an owner of `size` bytes the map (size, off) -> field names `field`.
template <class Map>
std::size_t offsets_named(const Map& fields, std::size_t size, const std::string& field) {
  std::size_t n = 0;
  for (const auto& [k, f] : fields) n += k.first == size && f == field;
  return n;
}

// field_of_line of line `line` (1-based) of file, its lines read once and the
// answer kept per (file, line): each run names the same fields again.
inline std::string field_at(const char* file, unsigned line) {
  static std::map<std::string, std::vector<std::string>> sources;
  // (a source_location's file name is a literal: its address names it)
  static std::map<std::pair<const char*, unsigned>, std::string> known;
  if (file == nullptr || line == 0) return "";
  auto [k, fresh_line] = known.try_emplace({file, line});
  if (!fresh_line) return k->second;
  auto [it, fresh] = sources.try_emplace(file);
  if (fresh)
    if (std::FILE* f = std::fopen(file, "r")) {
      char buf[1024];
      std::string text;
      while (std::fgets(buf, sizeof buf, f) != nullptr) {
        text += buf;
        if (text.back() != '\n' && !std::feof(f)) continue;
        if (text.back() == '\n') text.pop_back();
        it->second.push_back(std::move(text));
        text.clear();
      }
      std::fclose(f);
    }
  if (line <= it->second.size()) k->second = field_of_line(it->second[line - 1]);
  return k->second;
}

}  // namespace runqcheck::fuzz
