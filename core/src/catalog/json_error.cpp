// Where a JSON text stops being JSON, for the error message (json_fields.h). nlohmann's parser,
// run without exceptions, only says that a text failed; this scanner walks the grammar of
// RFC 8259 (§2 values, §4 objects, §5 arrays, §6 numbers, §7 strings, §8.1 UTF-8) over the same
// text and names the first byte where it breaks. It keeps its own stack of open containers, so
// a deeply nested text cannot exhaust the call stack.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/i18n.h"
#include "gpuplan/units.h"
#include "json_fields.h"

namespace gpuplan::detail {
namespace {

// A UTF-8 byte-order mark at the start (Windows editors write one): nlohmann's lexer skips it, as
// RFC 8259 section 8.1 allows, so the locator does too. Its length in bytes, 0 when absent.
std::size_t BomLength(std::string_view t) {
  return t.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
}

class Scanner {
 public:
  explicit Scanner(std::string_view t) : t_(t) {}

  // Empty when the text is valid JSON; else the reason, with pos() at the offending byte.
  std::string Run() {
    std::vector<char> open;  // '{' or '['
    // Skip a byte-order mark (found by fuzz-json: a BOM before "false" was accepted by nlohmann
    // and faulted at column 1 by this scanner).
    i_ = BomLength(t_);
    SkipSpace();
    if (i_ == t_.size()) return Tr("the text is empty");
    for (;;) {
      // A value.
      SkipSpace();
      if (i_ == t_.size()) return Tr("unexpected end of the text: a value is missing");
      const char c = t_[i_];
      if (c == '{' || c == '[') {
        open.push_back(c);
        ++i_;
        SkipSpace();
        if (i_ < t_.size() && t_[i_] == (c == '{' ? '}' : ']')) {
          ++i_;
          open.pop_back();
        } else if (c == '{') {
          if (std::string e = Key(); !e.empty()) return e;
          continue;
        } else {
          continue;
        }
      } else if (c == '"') {
        if (std::string e = String(); !e.empty()) return e;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (std::string e = Number(); !e.empty()) return e;
      } else if (t_.substr(i_, 4) == "true" || t_.substr(i_, 4) == "null") {
        i_ += 4;
      } else if (t_.substr(i_, 5) == "false") {
        i_ += 5;
      } else {
        return Unexpected(Tr("a value (an object, array, string, number, true, false or null)"));
      }
      // After a value: a separator, a closing bracket, or the end.
      for (;;) {
        SkipSpace();
        if (open.empty())
          return i_ == t_.size() ? std::string() : Unexpected(Tr("the end of the text after the value"));
        if (i_ == t_.size())
          return TrF("unexpected end of the text: {0} or ',' is missing", {open.back() == '{' ? "'}'" : "']'"});
        const char d = t_[i_];
        const char close = open.back() == '{' ? '}' : ']';
        if (d == close) {
          ++i_;
          open.pop_back();
          continue;
        }
        if (d != ',') return Unexpected(open.back() == '{' ? Tr("',' or '}'") : Tr("',' or ']'"));
        ++i_;
        if (open.back() == '{') {
          SkipSpace();
          if (std::string e = Key(); !e.empty()) return e;
        }
        break;
      }
    }
  }

  std::size_t pos() const { return i_; }

 private:
  void SkipSpace() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }

  std::string Unexpected(const char* expected) const {
    if (i_ == t_.size()) return TrF("unexpected end of the text: expected {0}", {expected});
    const unsigned char c = static_cast<unsigned char>(t_[i_]);
    std::string shown;
    if (c >= 0x20 && c < 0x7f)
      shown = std::string("'") + static_cast<char>(c) + "'";
    else {
      static const char kHex[] = "0123456789abcdef";
      shown = TrF("byte 0x{0}", {std::string{kHex[c >> 4], kHex[c & 15]}});
    }
    return TrF("expected {0}, found {1}", {expected, shown});
  }

  // A member's key and its ':' (the value follows).
  std::string Key() {
    if (i_ == t_.size()) return Tr("unexpected end of the text: a key is missing");
    if (t_[i_] != '"') return Unexpected(Tr("a key in double quotes"));
    if (std::string e = String(); !e.empty()) return e;
    SkipSpace();
    if (i_ == t_.size() || t_[i_] != ':') return Unexpected(Tr("':' after the key"));
    ++i_;
    return {};
  }

  // The four hexadecimal digits at `at` as a number, or -1.
  long Hex4(std::size_t at) const {
    if (at + 4 > t_.size()) return -1;
    long v = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
      const char c = t_[k];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    return v;
  }

  std::string String() {
    const std::size_t start = i_++;
    while (i_ < t_.size()) {
      const unsigned char c = static_cast<unsigned char>(t_[i_]);
      if (c == '"') {
        ++i_;
        return {};
      }
      if (c < 0x20) return Tr("a control character inside a string (write it as an escape such as \\n)");
      if (c == '\\') {
        if (++i_ == t_.size()) break;
        const char e = t_[i_];
        if (e == 'u') {
          // \uXXXX; a UTF-16 high surrogate must be followed by a \u low one, and a low one
          // cannot stand alone (RFC 8259 §7; nlohmann refuses both).
          const long unit = Hex4(i_ + 1);
          if (unit < 0) return Tr("\\u must be followed by four hexadecimal digits");
          i_ += 5;
          if (unit >= 0xdc00 && unit <= 0xdfff) return Tr("a \\u escape holds a lone low surrogate (\\uDC00-\\uDFFF)");
          if (unit >= 0xd800 && unit <= 0xdbff) {
            const long low = t_.substr(i_, 2) == "\\u" ? Hex4(i_ + 2) : -1;
            if (low < 0xdc00 || low > 0xdfff)
              return Tr("a \\u high surrogate (\\uD800-\\uDBFF) must be followed by a \\u low one");
            i_ += 6;
          }
          continue;
        }
        if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos)
          return TrF("an invalid escape '\\{0}' in a string", {std::string(1, e)});
        ++i_;
        continue;
      }
      if (c >= 0x80) {
        // One well-formed UTF-8 sequence, as strict as nlohmann (no overlong forms or surrogates).
        const std::size_t len = Utf8SequenceAt(t_, i_);
        if (len == 0) return Tr("invalid UTF-8 inside a string");
        i_ += len;
        continue;
      }
      ++i_;
    }
    i_ = start;
    return Tr("a string is not closed (a '\"' is missing)");
  }

  std::string Number() {
    const std::size_t start = i_;
    if (t_[i_] == '-') ++i_;
    auto digits = [&] {
      const std::size_t from = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
      return i_ - from;
    };
    if (i_ < t_.size() && t_[i_] == '0') {
      ++i_;
      if (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') return Tr("a number cannot start with 0 (write 7, not 07)");
    } else if (digits() == 0) {
      return Unexpected(Tr("a digit"));
    }
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (digits() == 0) return Unexpected(Tr("a digit after the decimal point"));
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (digits() == 0) return Unexpected(Tr("a digit in the exponent"));
    }
    // nlohmann refuses a number that overflows a double (1e400); so does this.
    const std::string token(t_.substr(start, i_ - start));
    errno = 0;
    const double v = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(v) || (errno == ERANGE && std::fabs(v) > 1)) {
      i_ = start;
      return TrF("the number {0} is out of range", {token});
    }
    return {};
  }

  std::string_view t_;
  std::size_t i_ = 0;
};

}  // namespace

std::string JsonErrorAt(std::string_view text) {
  Scanner scan(text);
  const std::string why = scan.Run();
  if (why.empty()) return Tr("not valid JSON");  // the scanner accepts what nlohmann refused: no position to give
  // At the end of the text, point just after its last visible character, not at a blank line.
  std::size_t at = scan.pos();
  if (at >= text.size()) {
    at = text.size();
    while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t' || text[at - 1] == '\n' || text[at - 1] == '\r'))
      --at;
  }
  // Line and column (1-based; the column counts characters, not UTF-8 bytes).
  // A byte-order mark the scanner skipped is not a column an editor shows.
  std::size_t line = 1, line_start = std::min(at, BomLength(text));
  for (std::size_t k = 0; k < at && k < text.size(); ++k)
    if (text[k] == '\n') ++line, line_start = k + 1;
  std::size_t column = 1;
  for (std::size_t k = line_start; k < at && k < text.size(); ++k)
    if ((static_cast<unsigned char>(text[k]) & 0xc0) != 0x80) ++column;
  std::size_t line_end = text.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = text.size();
  // The snippet: up to 30 bytes either side of the error on its line, cut at character starts.
  auto is_start = [&](std::size_t k) {
    return k >= text.size() || (static_cast<unsigned char>(text[k]) & 0xc0) != 0x80;
  };
  std::size_t from = at > line_start + 30 ? at - 30 : line_start;
  while (from > line_start && !is_start(from)) --from;
  std::size_t to = std::min(line_end, std::max(at, from) + 30);
  while (to < line_end && !is_start(to)) ++to;
  std::string snippet;
  std::size_t caret = 0;
  for (std::size_t k = from; k < to; ++k) {
    const char c = text[k];
    snippet += (c == '\t' || c == '\r') ? ' ' : c;
    if (k < at && is_start(k)) ++caret;
  }
  const std::string where =
      TrF("not valid JSON at line {0}, column {1}: {2}", {std::to_string(line), std::to_string(column), why});
  if (snippet.find_first_not_of(' ') == std::string::npos) return where;
  return where + "\n    " + snippet + "\n    " + std::string(caret, ' ') + "^";
}

}  // namespace gpuplan::detail
