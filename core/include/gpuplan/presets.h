// gpuplan/presets.h — scenarios for the common questions, the seeds' own examples among them:
// one list that the page's Presets menu and the CLI's --preset (and `gpuplan catalog presets`)
// read, each a page-link hash and the panel that answers it.
#pragma once

#include <string>
#include <vector>

namespace gpuplan {

struct Preset {
  std::string id;        // --preset ID
  std::string question;  // what it answers, as a menu line
  std::string panel;     // fit, speed, compare, train, roofline
  std::string hash;      // the scenario, as a page link's hash (v=1&...)
  std::string source;    // where the question comes from (a seed's line, or empty)
};

const std::vector<Preset>& Presets();
const Preset* FindPreset(const std::string& id);

}  // namespace gpuplan
