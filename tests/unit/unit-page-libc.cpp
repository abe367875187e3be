// The page's one-number sscanf (web/host/libc_link_trims.cpp), on the formats Dear ImGui hands
// it, against what the C library's sscanf answers for the same text.
#include <catch2/catch.hpp>

#include <cstdio>

extern "C" int __wrap_sscanf(const char* text, const char* format, ...);

TEST_CASE("the page's sscanf reads ImGui's formats as the C library does") {
  int major = 0, minor = 0, glsl = 130;
  CHECK(__wrap_sscanf("#version 300 es", "#version %d", &glsl) == 1);
  CHECK(glsl == 300);
  CHECK(__wrap_sscanf("3.0 (WebGL 2.0)", "%d.%d", &major, &minor) == 2);
  CHECK((major == 3 && minor == 0));

  long long ll = 7, ll_libc = 7;
  for (const char* text : {"42", " -17", "12abc", "abc", "", "9223372036854775807"}) {
    CAPTURE(text);
    const int libc = std::sscanf(text, "%lld", &ll_libc);
    CHECK(__wrap_sscanf(text, "%lld", &ll) == (libc < 0 ? 0 : libc));  // empty text: EOF there, 0 here
    if (libc == 1) CHECK(ll == ll_libc);
  }
  double d = 0, d_libc = 0;
  for (const char* text : {"1.5", "  2e3", "-0.25x", "1e400", ".", "nan"}) {
    CAPTURE(text);
    const int libc = std::sscanf(text, "%lf", &d_libc);
    CHECK(__wrap_sscanf(text, "%lf", &d) == libc);
    if (libc == 1 && d_libc == d_libc) CHECK(d == d_libc);
  }
  float f = 0;
  CHECK(__wrap_sscanf("0.5", "%f", &f) == 1);
  CHECK(f == 0.5f);
  unsigned u = 0;
  CHECK(__wrap_sscanf("12", "%u", &u) == 1);
  CHECK(u == 12u);
  int i = 0;
  CHECK(__wrap_sscanf("0x1F", "%i", &i) == 1);
  CHECK(i == 31);
}

TEST_CASE("the page's sscanf stores nothing past a directive it does not read") {
  unsigned a = 1, b = 2;
  CHECK(__wrap_sscanf("FF00", "%02X%02X", &a, &b) == 0);
  CHECK((a == 1 && b == 2));
  int n = 5;
  CHECK(__wrap_sscanf("Column 3", "Column %d%n", &n, &a) == 1);  // %n: stops, as the settings readers never run
  CHECK(n == 3);
  CHECK(__wrap_sscanf("x", "y%d", &n) == 0);
  CHECK(n == 3);
}
