// gpuplan/expected.h — a value or an error message, for every boundary that can fail
// (catalog load, state decode, CLI arguments). The core never throws: exceptions are
// off in the page build, so failures travel as values.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace gpuplan {

struct Error {
  std::string message;  // names the file/entry/field/flag and says why
};

template <typename T>
class Result {
 public:
  Result(T value) : data_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Error error) : data_(std::move(error)) {}      // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(data_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  const std::string& error() const { return std::get<Error>(data_).message; }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Error> data_;
};

}  // namespace gpuplan
