// The roofline: ceilings and ridge points from the datasheets, operations on the right side of
// the ridge, the chart's axes and ticks, and the SVG document.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "gpuplan/machine.h"
#include "gpuplan/probe_result.h"
#include "gpuplan/roofline.h"
#include "gpuplan/units.h"
#include "support.h"

using namespace gpuplan;
using test::Cat;

namespace {

Roofline Build(const Scenario& s) {
  Result<Roofline> r = BuildRoofline(Cat(), s);
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  return r.value();
}

const RoofOp& Op(const Roofline& r, const std::string& key) {
  for (const RoofOp& op : r.ops)
    if (op.key == key) return op;
  FAIL("no operation " << key);
  return r.ops.front();
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

// A100 SXM4 80GB: 312 TFLOP/s dense BF16 over 2,039 GB/s = 153 FLOP/B (NVIDIA A100 datasheet);
// H100 SXM5: 989.4 over 3,350 GB/s = 295 FLOP/B.
TEST_CASE("ridge points are the datasheet peak over the bandwidth", "[roofline]") {
  const Roof a100 = GpuRoof(Cat(), *Cat().FindGpu("a100-sxm-80gb"));
  CHECK(a100.Ridge("bf16") == Approx(312e12 / 2039e9).epsilon(0.01));
  const Roof h100 = GpuRoof(Cat(), *Cat().FindGpu("h100-sxm"));
  CHECK(h100.Ridge("bf16") == Approx(989.4e12 / 3.35e12).epsilon(0.01));
  CHECK(h100.compute.front().flops_per_s >= h100.FindCompute("bf16")->flops_per_s);  // highest first
  CHECK(h100.FindMemory("host") != nullptr);                                         // PCIe 5.0 x16
  CHECK(h100.FindMemory("link") != nullptr);                                         // NVLink 4
}

TEST_CASE("decode is memory-bound, prefill compute-bound - flash moves attention across the ridge", "[roofline]") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "h100-sxm";
  s.batch = 1;
  s.prompt = 4096;
  s.context = 8192;
  const Roofline r = Build(s);
  // A GEMV of one token reads each weight once for 2 FLOPs: intensity ~1 FLOP/B at BF16.
  CHECK(Op(r, "decode_mlp_up").intensity == Approx(1).epsilon(0.01));
  CHECK(Op(r, "decode_mlp_up").bound == "memory");
  CHECK(Op(r, "prefill_mlp_up").bound == "compute");
  CHECK(Op(r, "prefill_mlp_up").intensity > r.roof.Ridge("bf16"));
  const RoofOp& naive = Op(r, "attention_naive");
  const RoofOp& flash = Op(r, "attention_flash");
  CHECK(naive.bound == "memory");
  CHECK(flash.bound == "compute");
  CHECK(flash.intensity > 10 * naive.intensity);
  // Batch raises the decode GEMMs' intensity about linearly (weights read once for b tokens).
  s.batch = 64;
  CHECK(Op(Build(s), "decode_mlp_up").intensity == Approx(64).epsilon(0.1));
  for (const char* phase : {"prefill", "decode", "train"}) {
    double share = 0;
    for (const RoofOp& op : r.ops)
      if (op.phase == phase) {
        share += op.alternative ? 0 : op.share;
        CHECK(std::isfinite(op.intensity));
        CHECK(op.attainable_flops_per_s <= r.roof.compute.front().flops_per_s);
      }
    CHECK(share == Approx(1));
  }
  CHECK(Op(r, "train_adamw").bound == "memory");
}

TEST_CASE("MoE, tensor parallelism and the training all-reduce add their operations", "[roofline]") {
  Scenario s;
  s.model = "mixtral-8x7b";
  s.gpu = "a100-sxm-80gb";
  s.tp = 2;
  s.dp = 4;
  const Roofline r = Build(s);
  CHECK(Op(r, "decode_experts").flops > 0);
  CHECK(Op(r, "decode_all_reduce").ceiling == "link");
  CHECK(Op(r, "train_all_reduce").bytes > 0);
  s.model = "no-such-model";
  CHECK_FALSE(BuildRoofline(Cat(), s).ok());
}

TEST_CASE("log ticks: a major per decade with a unit, eight minors between", "[roofline][chart]") {
  const std::vector<Tick> t = LogTicks(1e12, 1e15, "FLOP/s");
  size_t majors = 0;
  for (const Tick& k : t) majors += k.major ? 1 : 0;
  CHECK(majors == 4);
  CHECK(t.size() == 4 + 3 * 8);
  CHECK(t.front().label == "1 TFLOP/s");
  CHECK(t.back().label == "1 PFLOP/s");
  CHECK(LogTicks(0.1, 1000, "FLOP/B").back().label == "1k");
  CHECK(LogTicks(0, 10, "FLOP/s").empty());
  CHECK(LogTicks(10, 1, "FLOP/s").empty());
  CHECK(FormatRate(3.35e12, "B/s") == "3.35 TB/s");
  CHECK(FormatRate(0.25, "FLOP/B") == "0.25");
}

TEST_CASE("the chart fits every roof and point - the SVG is a complete, escaped document", "[roofline][chart]") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "h100-sxm";
  const Roofline r = Build(s);
  std::vector<ChartPoint> points;
  for (const RoofOp& op : r.ops)
    points.push_back({op.name + " <&>", op.intensity, op.attainable_flops_per_s, 0xff0000, false});
  const std::vector<Roof> roofs = {r.roof, GpuRoof(Cat(), *Cat().FindGpu("rtx-4090"))};
  RooflineChart c = MakeRooflineChart(roofs, points, r.precision);
  REQUIRE(c.roofs.size() >= 2);
  for (const ChartPoint& p : c.points) {
    CHECK(p.intensity >= c.x_lo);
    CHECK(p.intensity <= c.x_hi);
    CHECK(p.flops_per_s <= c.y_hi);
  }
  for (const ChartRoof& roof : c.roofs) {
    REQUIRE(roof.line.size() >= 2);
    CHECK(roof.line.back().first == Approx(c.x_hi));
  }
  // FP8 weights on an H100: the FP8 roof and the BF16 one its attention runs under.
  Scenario f = s;
  f.weights = "fp8";
  const Roofline fp8 = Build(f);
  CHECK(fp8.precision == "fp8");
  const RooflineChart fp8_chart = MakeRooflineChart({fp8.roof}, {}, fp8.precision);
  std::vector<std::string> solid, dashed;
  for (const ChartRoof& roof : fp8_chart.roofs) (roof.dashed ? dashed : solid).push_back(roof.label);
  INFO("solid: " << solid.size() << ", dashed: " << dashed.size());
  CHECK(solid.size() == 2);
  // ... and the attainable roof (ceilings.json: a published FP8 GEMM and copy), dashed, under it.
  REQUIRE(dashed.size() == 1);
  CHECK(dashed.front().find("attainable") != std::string::npos);
  c.title = "Llama & friends";
  const std::string svg = RooflineSvg(c);
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(svg.find("Llama &amp; friends") != std::string::npos);
  CHECK(svg.find("<&>") == std::string::npos);
  CHECK(svg.find("nan") == std::string::npos);
  size_t polylines = 0;
  for (size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++polylines;
  CHECK(polylines == c.roofs.size());
}

TEST_CASE("a GPU probe adds measured ceilings and GEMM points at their shape's intensity", "[roofline]") {
  Result<GpuProbeResult> probe =
      ParseGpuProbe(ReadText(std::string(GPUPLAN_TEST_DATA) + "/reference/device/h200-2026-11-30-probe.json"));
  REQUIRE(probe.ok());
  Roof roof = GpuRoof(Cat(), *Cat().FindGpu("h200-sxm"));
  const size_t before = roof.compute.size();
  AddMeasuredCeilings(roof, *probe);
  CHECK(roof.compute.size() > before);
  CHECK(roof.FindMemory("l2") != nullptr);
  CHECK(roof.FindMemory("l2")->bytes_per_s > roof.memory.front().bytes_per_s);
  const std::vector<ChartPoint> points = MeasuredGemmPoints(*probe);
  REQUIRE_FALSE(points.empty());
  // 8192³ BF16: 2·8192³ FLOPs over 3·8192² × 2 B = 2730.7 FLOP/B.
  bool found = false;
  for (const ChartPoint& p : points) {
    if (p.label.find("BF16") == std::string::npos) continue;
    found = true;
    CHECK(p.intensity == Approx(8192.0 / 3));
  }
  CHECK(found);
}

TEST_CASE("this machine's CPU as a roof: measured FMA peak over STREAM and the cache plateaus", "[roofline][machine]") {
  CpuProbeResult p;
  p.cpu.model_name = "Test CPU";
  p.fma = {{1, 100e9, 50e9}, {2, 200e9, 100e9}};
  p.gemm = {{1024, 2, 180e9, "test kernel"}};
  p.stream = {{"triad", 25e9, 25e9, 64 << 20, 24, 2, 9}};
  p.measured_caches = {{1, 48 << 10, 400e9}, {2, 1 << 20, 150e9}};
  const Roof roof = CpuRoof(p);
  CHECK(roof.label == "Test CPU");
  CHECK(roof.compute.front().flops_per_s == 200e9);
  CHECK(roof.memory.front().bytes_per_s == 25e9);
  CHECK(roof.Ridge("fp32") == Approx(8));
  CHECK(roof.FindMemory("l1")->measured);
  const std::vector<ChartPoint> points = CpuGemmPoints(p);
  REQUIRE(points.size() == 1);
  CHECK(points[0].intensity == Approx(1024.0 / 6));
  const RooflineChart chart = MakeRooflineChart({roof}, points, "fp32");
  CHECK(chart.roofs.size() == 3);  // the roof, and the SGEMM under the two cache levels (dashed)
  for (const MachineRow& r : CpuProbeRows(p)) {
    CHECK(r.text.find("nan") == std::string::npos);
    CHECK(std::isfinite(r.value));
  }
}
