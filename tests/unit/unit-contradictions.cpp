// The table of contradictions (contradictions.h), walked row by row: for every row a scenario
// that triggers it and a nearby one that does not, through the Session's views as the CLI and
// the page read them (a view's failure, then its report's warnings).
#include "support.h"

#include <set>

#include "gpuplan/contradictions.h"
#include "gpuplan/session.h"
#include "gpuplan/views.h"

using namespace gpuplan;
using gpuplan::test::Cat;

namespace {

struct Case {
  const char* id;
  const char* view;  // fit (serving) or train
  const char* hit;   // a link that triggers the row
  const char* near;  // one change away, and it does not
};

// One or more cases per row; rows for serving and training both have a case for each.
const Case kCases[] = {
    {"prompt-over-context", "fit", "context=1024&prompt=2048", "context=2048&prompt=2048"},
    {"context-over-window", "fit", "model=opt-13b&context=4096&prompt=1024", "model=opt-13b&context=2048&prompt=1024"},
    {"sequence-over-window", "train", "model=opt-13b&context=4096", "model=opt-13b&context=2048"},
    {"ep-dense", "fit", "ep=1", "ep=0"},
    {"ep-one-gpu", "fit", "model=mixtral-8x7b&weights=q4_k_m&ep=1", "model=mixtral-8x7b&weights=q4_k_m&ep=1&tp=2"},
    {"ep-over-experts", "fit", "model=mixtral-8x7b&ep=1&tp=16", "model=mixtral-8x7b&ep=1&tp=8"},
    {"ep-uneven", "fit", "model=mixtral-8x7b&ep=1&tp=3", "model=mixtral-8x7b&ep=1&tp=4"},
    {"pp-over-layers", "fit", "model=llama-3.2-1b&pp=32", "model=llama-3.2-1b&pp=16"},
    {"pp-over-layers", "train", "model=llama-3.2-1b&pp=32", "model=llama-3.2-1b&pp=16"},
    {"pp-uneven", "fit", "pp=3", "pp=4"},
    {"pp-uneven", "train", "pp=3", "pp=4"},
    {"tp-heads", "fit", "tp=3", "tp=4"},
    {"tp-heads-train", "train", "tp=3", "tp=4"},
    {"mla-kv-tp", "fit", "model=deepseek-v3&weights=q4_k_m&tp=8&gpu=h200-sxm",
     "model=deepseek-v3&weights=q4_k_m&tp=8&gpu=h200-sxm&split=dp-attention"},
    {"kv-heads-replicated", "fit", "tp=16", "tp=8"},
    {"kv-heads-uneven", "fit", "model=qwen2.5-14b&tp=5", "model=qwen2.5-14b&tp=4"},
    {"gpu-layers-engine", "fit", "gpu-layers=20", "gpu-layers=20&engine=llama.cpp"},
    {"mem-util-no-cap", "fit", "engine=llama.cpp&mem-util=0.8", "engine=vllm&mem-util=0.8"},
    {"fp8-weights-no-fp8", "fit", "weights=fp8&gpu=a100-sxm-80gb", "weights=fp8&gpu=h100-sxm"},
    {"fp8-kv-no-fp8", "fit", "kv=fp8&gpu=a100-sxm-80gb", "kv=fp8&gpu=h100-sxm"},
    {"gpus-limit", "train", "tp=4096&pp=64&dp=65536", "tp=4096&pp=64&dp=64"},
    {"offload-param-zero", "train", "offload=2&zero=2&dp=2", "offload=2&zero=3&dp=2"},
    {"offload-optimizer-zero", "train", "offload=1&zero=0&dp=2", "offload=1&zero=0"},
    {"zero-one-gpu", "train", "zero=2", "zero=2&dp=2"},
    {"shard-group-over-dp", "train", "zero=3&dp=4&shard-group=8", "zero=3&dp=8&shard-group=8"},
    {"shard-group-uneven", "train", "zero=3&dp=6&shard-group=4", "zero=3&dp=8&shard-group=4"},
    {"moe-ep-dense", "train", "dp=2&moe-ep=2", "model=mixtral-8x7b&dp=2&moe-ep=2"},
    {"moe-ep-lora", "train", "model=mixtral-8x7b&method=lora&dp=2&moe-ep=2", "model=mixtral-8x7b&dp=2&moe-ep=2"},
    {"moe-ep-over-gpus", "train", "model=mixtral-8x7b&dp=2&moe-ep=4", "model=mixtral-8x7b&tp=2&dp=2&moe-ep=4"},
    {"moe-ep-uneven", "train", "model=mixtral-8x7b&dp=6&moe-ep=4", "model=mixtral-8x7b&dp=8&moe-ep=4"},
    {"moe-ep-experts", "train", "model=mixtral-8x7b&dp=6&moe-ep=3", "model=mixtral-8x7b&dp=6&moe-ep=2"},
    {"paged-offload", "train", "method=qlora&paged=1&offload=1&zero=1", "method=qlora&paged=1"},
    {"kbit-prep-no-kbit", "train", "method=lora&kbit-prep=1", "method=qlora&kbit-prep=1"},
    {"train-embed-full", "train", "train-embed=1", "method=lora&train-embed=1"},
    {"lora-options-full", "train", "lora-rank=64", "method=lora&lora-rank=64"},
    {"full-weights-format", "train", "weights=q4_k_m", "weights=q4_k_m&method=lora"},
    {"lora-zero12", "train", "method=lora&zero=2&dp=2", "method=lora&zero=3&dp=2"},
    {"precision-fp8-no-fp8", "train", "precision=fp8&gpu=a100-sxm-80gb", "precision=fp8&gpu=h100-sxm"},
    {"act-offload-no-recompute", "train", "act-offload=1", "act-offload=1&recompute=full"},
    {"kernels-fused-plain-mlp", "train", "model=opt-13b&context=2048&kernels=fused",
     "model=opt-13b&context=2048&kernels=eager"},
    {"vp-without-pp", "train", "vp=2", "vp=2&pp=2"},
    {"cp-context", "train", "cp=2&context=8190", "cp=2&context=8192"},
    {"global-batch-small", "train", "dp=4&micro-batch=2&global-batch=4", "dp=4&micro-batch=2&global-batch=8"},
    {"global-batch-rounded", "train", "dp=4&micro-batch=2&global-batch=12", "dp=4&micro-batch=2&global-batch=16"},
};

const Contradiction& Row(const std::string& id) {
  static const std::vector<Contradiction> rows = Contradictions();
  for (const Contradiction& c : rows)
    if (id == c.id) return c;
  FAIL("no row " << id);
  return rows.front();
}

// What the view says: its failure (the CLI prints it and exits 2), else its report's warnings.
struct Said {
  std::string failure;
  std::vector<std::string> warnings;
  bool Has(const std::string& text) const {
    if (failure.find(text) != std::string::npos) return true;
    for (const std::string& w : warnings)
      if (w == text) return true;
    return false;
  }
};

Said Say(const std::string& view_id, const Scenario& s) {
  Session session(Cat());
  session.SetScenario(s);
  const View* view = FindView(view_id);
  REQUIRE(view);
  Said said;
  said.failure = view->failure(session);
  if (said.failure.empty()) said.warnings = view->report(session, {}).warnings;
  return said;
}

// The row's own message for a scenario (empty where it does not apply).
std::string Message(const Contradiction& c, const Scenario& s) {
  Result<Resolved> r = Resolve(Cat(), s);
  REQUIRE(r.ok());
  return ContradictionMessage(c, *r, s);
}

}  // namespace

TEST_CASE("every row of the table has a case, and every id is unique with a field and a rule", "[contradictions]") {
  std::set<std::string> ids, covered;
  for (const Case& c : kCases) covered.insert(c.id);
  for (const Contradiction& c : Contradictions()) {
    INFO(c.id);
    CHECK(ids.insert(c.id).second);
    CHECK(covered.count(c.id) == 1);
    CHECK((FindField(c.field) != nullptr || std::string(c.field) == "scenario"));
    CHECK(std::string(c.text).size() > 10);
    CHECK((c.kinds & (kServeChecks | kTrainChecks)) != 0);
  }
  for (const std::string& id : covered) CHECK(ids.count(id) == 1);
}

TEST_CASE("each row fires on its scenario, with its severity, and not on the scenario next to it", "[contradictions]") {
  for (const Case& c : kCases) {
    const Contradiction& row = Row(c.id);
    const unsigned kind = std::string(c.view) == "train" ? kTrainChecks : kServeChecks;
    INFO(c.id << " in " << c.view << ": " << c.hit << " / " << c.near);
    REQUIRE((row.kinds & kind) != 0);
    const DecodedState hit = DecodeState(c.hit, Cat()), near = DecodeState(c.near, Cat());
    REQUIRE(hit.dropped.empty());
    REQUIRE(near.dropped.empty());
    const std::string message = Message(row, hit.scenario);
    REQUIRE(!message.empty());
    const Said said = Say(c.view, hit.scenario);
    if (row.severity == Severity::kError) {
      // Refused: the view fails with "<field>: <message>", and nothing is estimated.
      CHECK(said.failure == std::string(row.field) + ": " + message);
    } else {
      CHECK(said.failure.empty());
      CHECK(said.Has(message));
    }
    CHECK(Message(row, near.scenario).empty());
    const Said calm = Say(c.view, near.scenario);
    CHECK(!calm.Has(message));
    if (row.severity == Severity::kError) CHECK(calm.failure.empty());
  }
}

TEST_CASE("without the words, only the errors are checked", "[contradictions]") {
  const Scenario s = DecodeState("offload=2&zero=1&dp=2&vp=2", Cat()).scenario;
  Result<Resolved> r = Resolve(Cat(), s);
  REQUIRE(r.ok());
  std::optional<Error> e = CheckContradictions(*r, s, kTrainChecks, nullptr);
  REQUIRE(e);
  CHECK(e->message.rfind("offload: ", 0) == 0);
  std::vector<std::string> warnings;
  const Scenario ok = DecodeState("vp=2", Cat()).scenario;
  CHECK(!CheckContradictions(*r, ok, kServeChecks, &warnings));
  CHECK(warnings.empty());  // vp is a training row
  CHECK(!CheckContradictions(*r, ok, kTrainChecks, &warnings));
  CHECK(warnings.size() == 1);
}

TEST_CASE("the README lists every row of the table", "[contradictions]") {
  const std::string readme = gpuplan::test::ReadTestFile("../README.md");
  for (const Contradiction& c : Contradictions()) {
    INFO(c.id << ": regenerate the README's table with gpuplan catalog checks --format md");
    CHECK(readme.find("| " + std::string(c.id) + " | ") != std::string::npos);
    CHECK(readme.find(c.text) != std::string::npos);
  }
}
