// gpuplan/units.h — SI base units in double, and formatting that always names the unit.
//
// Index:
//   [SECTION] Byte units: GB (10^9) and GiB (2^30) are different units and never mixed
//   [SECTION] Formatting
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

// [SECTION] Byte units -----------------------------------------------------------------
inline constexpr double kKB = 1e3;
inline constexpr double kMB = 1e6;
inline constexpr double kGB = 1e9;
inline constexpr double kTB = 1e12;
inline constexpr double kKiB = 1024.0;
inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kTiB = kGiB * 1024.0;

// Compile-time facts (mp-units habit): the two families differ, and by how much.
static_assert(kKiB == 1024.0 && kKB == 1000.0);
static_assert(kGiB == 1073741824.0 && kGB == 1000000000.0);
static_assert(kGiB / kGB > 1.0737 && kGiB / kGB < 1.0738);

enum class ByteUnit { GiB, GB, MiB, MB, KiB };  // named as printed

// [SECTION] Formatting -----------------------------------------------------------------
// Every formatter returns text with its unit; a non-finite value prints as "n/a", never NaN.

// "12.34 GiB" (or GB/MiB/MB), with `decimals` digits after the point.
std::string FormatBytes(double bytes, ByteUnit unit = ByteUnit::GiB, int decimals = 2);
// Whole MiB with thousands separators, "81,559 MiB": the unit drivers report (nvidia-smi).
std::string FormatMiB(double bytes);
// Picks MiB or GiB (binary) by size: the default for memory the program reports.
std::string FormatBytesAuto(double bytes, int decimals = 2);
// A plain number with a fixed number of decimals, "n/a" when not finite. Locale-independent.
std::string FormatFixed(double value, int decimals);
// Shortest text up to `max_decimals`: 989.4 -> "989.4", 80 -> "80", 1.0625 -> "1.0625".
std::string FormatShort(double value, int max_decimals = 4);
// A reading on a chart's axis or in its tooltip: whole with separators from 100 up
// ("1,542"), one decimal below ("48.2").
std::string FormatReading(double value);
// Counts with thousands separators: 131072 -> "131,072".
std::string FormatCount(int64_t count);
// Text for XML (SVG): & < > " ' as entities.
std::string XmlEscape(std::string_view text);
// The code point of the three-byte UTF-8 sequence at `at` (U+0800..U+FFFF: CJK, kana,
// full-width forms), or 0 where another sequence (or a cut one) starts there.
unsigned Utf8ThreeByteAt(std::string_view text, size_t at);
// The candidate nearest to a misspelt `word` ("bandwith" -> "bandwidth", "fitt" -> "fit"):
// optimal string alignment distance (Damerau 1964: insert, delete, substitute, swap two
// neighbours), case-insensitive, at most 1 edit for words up to 4 letters, 2 up to 8, else 3,
// and the same first letter (a typo rarely changes it: "h1000" is not "b100"). Empty where none
// is that near, or where two are equally near.
std::string NearestWord(std::string_view word, const std::vector<std::string>& candidates);

// Line breaking for wrapped text: the end of the unbreakable unit that starts at `from` (not a
// space) — a word up to the next space or East Asian wide character, or one wide character —
// with any closing punctuation or small kana after it kept on the same line. A line may end at
// a space and before or after a wide character (Japanese has no spaces; UAX #14 lets lines break
// between ideographs and kana) but never before 、。，：）」』】 ー or a small kana, nor after （「『【
// (kinsoku shori, JIS X 4051 §6.1).
size_t NextLineBreak(std::string_view s, size_t from);
// The length of the well-formed UTF-8 sequence at `at` (1 for ASCII; RFC 3629 §4: no overlong
// form, no surrogate, nothing above U+10FFFF), or 0 where the bytes there are not one.
size_t Utf8SequenceAt(std::string_view text, size_t at);
// A count and its noun: "1 GPU", "8 GPUs", "1,024 rows".
std::string FormatCountOf(int64_t count, std::string_view one, std::string_view many);
// "$1,274" from $1,000 up (whole dollars, thousands separated), else "$" + `decimals` decimals.
std::string FormatUsd(double usd, int decimals);
// [SECTION] Money: the catalog keeps dollars; a report shows them in the reader's currency.
struct Money {
  std::string code = "USD";  // ISO 4217: USD, JPY, EUR
  double per_usd = 1;        // units of `code` one US dollar buys
  std::string basis;         // where the rate comes from, in words (empty for dollars)
};
// "$", "¥", "€".
std::string MoneySymbol(const Money& money);
// A dollar amount in `money`'s currency: "$1,274", "¥193,456", "€1,096". `decimals` are a
// dollar's (cents); currencies without minor units drop two of them (ISO 4217: the yen has
// none): $0.0123 -> "¥1.87" at 2 decimals; -1 picks by size. "n/a" when not finite.
std::string FormatMoney(double usd, const Money& money, int decimals = -1);
// Parameter counts, 1000-based: 8.03e9 -> "8.03 B", 13e6 -> "13.0 M".
std::string FormatParams(double count);

// Durations: "1.23 s" from a second up, "12.3 ms" / "2.08 ms" below, "2.5 µs" below a
// millisecond; "-" when not positive.
std::string FormatSeconds(double seconds);
// A rate with an SI prefix and 3 significant digits: "4.31 TB/s", "781 TFLOP/s" (or a size the
// same way: unit "B" gives "14.3 kB" for a message); intensities (a unit with "/B") as plain
// numbers, "1.2k" from 1000 up. "-" when not finite.
std::string FormatRate(double value, const std::string& unit);
// Fixed units for formulas: "1008 GB/s" (10^9 B/s, whole), "165.2 TFLOP/s" (10^12, one decimal).
std::string FormatGBs(double bytes_per_s);
std::string FormatTflops(double flops_per_s);
// A calendar date in UTC, ISO 8601: "2026-12-01" (the date a source or a file was read).
std::string FormatDateUtc(std::int64_t unix_seconds);

const char* ByteUnitName(ByteUnit unit);

}  // namespace gpuplan
