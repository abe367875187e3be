// Link-time trim of the C library for the page (web/CMakeLists.txt links it with
// -Wl,--wrap=sscanf), like host/sdl_link_trims.cpp for SDL.
//
//   sscanf   musl's sscanf is a whole scanf engine (vfscanf, ~5 KB of wasm, ~2 KB gzip). In the
//            page only Dear ImGui calls it: to read a number typed into InputScalar (one
//            conversion: "%d", "%u", "%lld", "%llu", "%f" or "%lf", the data type's scan
//            format) and in its .ini settings readers, which never run here (the page sets
//            io.IniFilename = nullptr and loads no settings). This reads one number with
//            strtol/strtoul/strtoll/strtoull/strtof/strtod (linked anyway) and answers what
//            sscanf would: 1 when the text starts with a number, 0 when it does not or when
//            the format is not one of those (nothing is written then).
#include <cstdarg>
#include <cstdlib>
#include <cstring>

namespace {

// Stores one number read by `parse` (a strto* call) through the next pointer argument.
template <typename T, typename Parse>
int ReadOne(const char* text, va_list& args, Parse parse) {
  char* end = nullptr;
  const auto v = parse(text, &end);
  if (end == text) return 0;
  *va_arg(args, T*) = static_cast<T>(v);
  return 1;
}

}  // namespace

extern "C" {

int __wrap_sscanf(const char* text, const char* format, ...);

int __wrap_sscanf(const char* text, const char* format, ...) {
  if (!text || !format) return 0;
  va_list args;
  va_start(args, format);
  auto is = [format](const char* f) { return std::strcmp(format, f) == 0; };
  int matched = 0;
  if (is("%d")) matched = ReadOne<int>(text, args, [](const char* t, char** e) { return std::strtol(t, e, 10); });
  else if (is("%i")) matched = ReadOne<int>(text, args, [](const char* t, char** e) { return std::strtol(t, e, 0); });
  else if (is("%u")) matched = ReadOne<unsigned>(text, args, [](const char* t, char** e) { return std::strtoul(t, e, 10); });
  else if (is("%lld")) matched = ReadOne<long long>(text, args, [](const char* t, char** e) { return std::strtoll(t, e, 10); });
  else if (is("%llu"))
    matched = ReadOne<unsigned long long>(text, args, [](const char* t, char** e) { return std::strtoull(t, e, 10); });
  else if (is("%f")) matched = ReadOne<float>(text, args, [](const char* t, char** e) { return std::strtof(t, e); });
  else if (is("%lf")) matched = ReadOne<double>(text, args, [](const char* t, char** e) { return std::strtod(t, e); });
  va_end(args);
  return matched;
}

}  // extern "C"
