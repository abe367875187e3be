// Link-time trim of the C library for the page (web/CMakeLists.txt links it with
// -Wl,--wrap=sscanf), like host/sdl_link_trims.cpp for SDL.
//
//   sscanf   musl's sscanf is a whole scanf engine (vfscanf, ~5 KB of wasm, ~2 KB gzip). In the
//            page only Dear ImGui calls it, with formats of literal text and plain
//            conversions: its OpenGL backend reads "#version %d" and "%d.%d", InputScalar
//            reads a typed number with the data type's scan format ("%d", "%u", "%lld",
//            "%llu", "%f", "%lf"). Its .ini settings readers (%n, %[, widths) never run: the
//            page sets io.IniFilename = nullptr and loads no settings. This reads those
//            formats with strtol/strtoul/strtoll/strtoull/strtof/strtod (linked anyway) and
//            answers what sscanf does: the number of conversions stored, stopping at the
//            first mismatch or at a directive it does not know (nothing more is written).
#include <cstdarg>
#include <cstdlib>
#include <cstring>

namespace {

// Reads one number with `parse` (a strto* call) at *text, stores it through the next pointer
// argument and moves *text past it; false (nothing stored) when no number starts there.
template <typename T, typename Parse>
bool ReadOne(const char** text, va_list& args, Parse parse) {
  char* end = nullptr;
  const auto v = parse(*text, &end);
  if (end == *text) return false;
  *va_arg(args, T*) = static_cast<T>(v);
  *text = end;
  return true;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

extern "C" {

int __wrap_sscanf(const char* text, const char* format, ...);

int __wrap_sscanf(const char* text, const char* format, ...) {
  if (!text || !format) return 0;
  va_list args;
  va_start(args, format);
  int stored = 0;
  const char* f = format;
  while (*f) {
    if (IsSpace(*f)) {  // white space in the format matches any amount in the text
      while (IsSpace(*text)) ++text;
      ++f;
      continue;
    }
    if (*f != '%' || f[1] == '%') {  // literal text must match
      const char want = *f == '%' ? '%' : *f;
      f += *f == '%' ? 2 : 1;
      if (*text != want) break;
      ++text;
      continue;
    }
    auto at = [&f](const char* conv) {
      const size_t n = std::strlen(conv);
      if (std::strncmp(f + 1, conv, n) != 0) return false;
      f += 1 + n;
      return true;
    };
    bool ok = false;
    if (at("d")) ok = ReadOne<int>(&text, args, [](const char* t, char** e) { return std::strtol(t, e, 10); });
    else if (at("i")) ok = ReadOne<int>(&text, args, [](const char* t, char** e) { return std::strtol(t, e, 0); });
    else if (at("u")) ok = ReadOne<unsigned>(&text, args, [](const char* t, char** e) { return std::strtoul(t, e, 10); });
    else if (at("lld")) ok = ReadOne<long long>(&text, args, [](const char* t, char** e) { return std::strtoll(t, e, 10); });
    else if (at("llu"))
      ok = ReadOne<unsigned long long>(&text, args, [](const char* t, char** e) { return std::strtoull(t, e, 10); });
    else if (at("f")) ok = ReadOne<float>(&text, args, [](const char* t, char** e) { return std::strtof(t, e); });
    else if (at("lf")) ok = ReadOne<double>(&text, args, [](const char* t, char** e) { return std::strtod(t, e); });
    if (!ok) break;  // no number there, or a directive this reader does not know
    ++stored;
  }
  va_end(args);
  return stored;
}

}  // extern "C"
