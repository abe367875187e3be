#include "gpuplan/units.h"

#include <cmath>
#include <cstdio>

namespace gpuplan {

const char* ByteUnitName(ByteUnit unit) {
  switch (unit) {
    case ByteUnit::GiB: return "GiB";
    case ByteUnit::GB: return "GB";
    case ByteUnit::MiB: return "MiB";
    case ByteUnit::MB: return "MB";
  }
  return "?";
}

static double ByteUnitSize(ByteUnit unit) {
  switch (unit) {
    case ByteUnit::GiB: return kGiB;
    case ByteUnit::GB: return kGB;
    case ByteUnit::MiB: return kMiB;
    case ByteUnit::MB: return kMB;
  }
  return 1.0;
}

std::string FormatFixed(double value, int decimals) {
  if (!std::isfinite(value)) return "n/a";
  if (decimals < 0) decimals = 0;
  if (decimals > 9) decimals = 9;
  char buf[64];
  // snprintf's %f honours LC_NUMERIC; the CLI pins it to "C" and wasm has only "C".
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  // "-0.00" reads as a negative size: print zero without a sign.
  std::string s = buf;
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

std::string FormatUsd(double usd, int decimals) {
  if (!std::isfinite(usd)) return "n/a";
  return "$" + (std::abs(usd) >= 1000 ? FormatCount(std::llround(usd)) : FormatFixed(usd, decimals));
}

std::string FormatBytes(double bytes, ByteUnit unit, int decimals) {
  if (!std::isfinite(bytes)) return "n/a";
  return FormatFixed(bytes / ByteUnitSize(unit), decimals) + " " + ByteUnitName(unit);
}

std::string FormatBytesAuto(double bytes, int decimals) {
  if (!std::isfinite(bytes)) return "n/a";
  return FormatBytes(bytes, std::fabs(bytes) >= kGiB ? ByteUnit::GiB : ByteUnit::MiB, decimals);
}

std::string FormatShort(double value, int max_decimals) {
  std::string s = FormatFixed(value, max_decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string FormatCount(int64_t count) {
  const bool negative = count < 0;
  // Work in unsigned so that INT64_MIN does not overflow.
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(count) : static_cast<uint64_t>(count);
  std::string digits = std::to_string(magnitude);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

std::string FormatParams(double count) {
  if (!std::isfinite(count)) return "n/a";
  if (std::fabs(count) >= 1e12) return FormatFixed(count / 1e12, 2) + " T";
  if (std::fabs(count) >= 1e9) return FormatFixed(count / 1e9, 2) + " B";
  if (std::fabs(count) >= 1e6) return FormatFixed(count / 1e6, 1) + " M";
  return FormatFixed(count, 0);
}

}  // namespace gpuplan
