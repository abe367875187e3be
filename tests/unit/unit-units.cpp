// Units and formatting: GB and GiB never confused, nothing non-finite printed.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "gpuplan/units.h"

using namespace gpuplan;

TEST_CASE("byte units are distinct", "[units]") {
  STATIC_REQUIRE(kGiB == 1073741824.0);
  STATIC_REQUIRE(kGB == 1e9);
  CHECK(FormatBytes(kGiB, ByteUnit::GiB) == "1.00 GiB");
  CHECK(FormatBytes(kGiB, ByteUnit::GB) == "1.07 GB");
  CHECK(FormatBytes(24e9, ByteUnit::GiB) == "22.35 GiB");
  CHECK(FormatBytes(819200, ByteUnit::MiB, 4) == "0.7812 MiB");
}

TEST_CASE("auto formatting picks MiB or GiB", "[units]") {
  CHECK(FormatBytesAuto(512 * kMiB) == "512.00 MiB");
  CHECK(FormatBytesAuto(80 * kGiB) == "80.00 GiB");
}

TEST_CASE("non-finite values print as n/a, never NaN or inf", "[units]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(FormatBytes(nan) == "n/a");
  CHECK(FormatBytes(inf, ByteUnit::GB) == "n/a");
  CHECK(FormatFixed(-inf, 2) == "n/a");
  CHECK(FormatParams(nan) == "n/a");
}

TEST_CASE("negative zero prints without a sign", "[units]") {
  CHECK(FormatFixed(-0.001, 2) == "0.00");
  CHECK(FormatFixed(-0.0, 0) == "0");
  CHECK(FormatFixed(-1.5, 1) == "-1.5");
}

TEST_CASE("counts and parameter counts", "[units]") {
  CHECK(FormatCount(0) == "0");
  CHECK(FormatCount(131072) == "131,072");
  CHECK(FormatCount(-1234567) == "-1,234,567");
  CHECK(FormatCount(INT64_MIN) == "-9,223,372,036,854,775,808");
  CHECK(FormatCountOf(1, "GPU", "GPUs") == "1 GPU");
  CHECK(FormatCountOf(2, "GPU", "GPUs") == "2 GPUs");
  CHECK(FormatCountOf(0, "GPU", "GPUs") == "0 GPUs");
  CHECK(FormatCountOf(1024, "row", "rows") == "1,024 rows");
  CHECK(FormatParams(8030261248.0) == "8.03 B");
  CHECK(FormatParams(70553706496.0) == "70.55 B");
  CHECK(FormatParams(125e6) == "125.0 M");
  CHECK(FormatParams(1.8e12) == "1.80 T");
}

TEST_CASE("short formatting drops trailing zeros only", "[units]") {
  CHECK(FormatShort(989.4) == "989.4");
  CHECK(FormatShort(80) == "80");
  CHECK(FormatShort(1.0625) == "1.0625");
  CHECK(FormatShort(0.53125, 2) == "0.53");
  CHECK(FormatShort(100) == "100");
}

TEST_CASE("lines break between Japanese characters, never before closing punctuation", "[units]") {
  // Every unit of a text, in order, as the wrapping code takes them.
  auto units = [](std::string_view s) {
    std::vector<std::string> out;
    for (size_t b = 0; b < s.size();) {
      const size_t e = gpuplan::NextLineBreak(s, b);
      out.emplace_back(s.substr(b, e - b));
      b = e;
      while (b < s.size() && s[b] == ' ') ++b;
    }
    return out;
  };
  CHECK(units("fits in 24 GB") == std::vector<std::string>{"fits", "in", "24", "GB"});
  // Each kana or kanji is a unit; the long-vowel mark and 、 stay with the character before.
  CHECK(units("トークン、次") == std::vector<std::string>{"トー", "ク", "ン、", "次"});
  // After a Latin word too (the flaw a phone screenshot showed: a line starting with 、).
  CHECK(units("8,192 GPU、収まる。") == std::vector<std::string>{"8,192", "GPU、", "収", "ま", "る。"});
  CHECK(units("（GPU）です") == std::vector<std::string>{"（GPU）", "で", "す"});
  CHECK(units("ッ") == std::vector<std::string>{"ッ"});
  CHECK(units("").empty());
}
