#include "touch.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include <imgui.h>
#include <imgui_internal.h>

namespace gpuplan::ui {

namespace {
bool g_touch_used = false;
}  // namespace

bool TouchUsed() { return g_touch_used; }

void Touch::Down(float x, float y, double t_ms) {
  g_touch_used = true;
  // A new finger starts a new gesture, even where the last one never ended here (the browser
  // took a swipe over to scroll the host page and sent this frame no touchend).
  // A finger on a gliding list stops it; lifting that finger again is not a click.
  stopped_glide_ = phase_ == Phase::kGlide;
  phase_ = Phase::kPending;
  start_x_ = last_x_ = x;
  start_y_ = last_y_ = y;
  last_t_ = t_ms;
  velocity_ = 0;
  pending_ = 0;
  target_ = 0;
}

int Touch::Move(float x, float y, double t_ms) {
  switch (phase_) {
    case Phase::kPending: {
      const float dx = x - start_x_, dy = y - start_y_;
      if (std::max(std::fabs(dx), std::fabs(dy)) < kSlop) return kPass;  // still a tap (or a rest)
      axis_ = std::fabs(dy) >= std::fabs(dx) ? 1 : 0;
      const float travel = axis_ ? dy : dx;
      target_ = FindScrollable(start_x_, start_y_, axis_, travel);
      if (!target_) {
        phase_ = Phase::kPassed;  // nothing here scrolls that way: the host page may
        return kPass;
      }
      phase_ = Phase::kScroll;
      pending_ += travel;  // the content follows the finger from where it went down
      last_x_ = x, last_y_ = y, last_t_ = t_ms;
      return kConsumed;
    }
    case Phase::kScroll: {
      const float d = axis_ ? y - last_y_ : x - last_x_;
      const double dt = t_ms - last_t_;
      pending_ += d;
      if (dt > 0) {
        // Exponential smoothing over about the last kVelocityWindowMs of samples.
        const double keep = std::exp(-dt / (kVelocityWindowMs / 2));
        velocity_ = static_cast<float>(keep * velocity_ + (1 - keep) * (d / dt));
        last_t_ = t_ms;
      }
      last_x_ = x, last_y_ = y;
      return kConsumed;
    }
    case Phase::kPassed:
    case Phase::kIdle:
    case Phase::kGlide:
      return kPass;
  }
  return kPass;
}

bool Touch::Up(float x, float y, double t_ms) {
  (void)x, (void)y;
  switch (phase_) {
    case Phase::kPending:
      phase_ = Phase::kIdle;
      if (stopped_glide_) return false;
      click_ = Click::kPress;  // where the finger went down: a lift drifts a little
      click_x_ = start_x_;
      click_y_ = start_y_;
      return true;
    case Phase::kScroll:
      // A finger that stopped before lifting puts the list down; one still moving throws it.
      if (t_ms - last_t_ < kVelocityWindowMs && std::fabs(velocity_) >= kMinGlideSpeed) {
        phase_ = Phase::kGlide;
        frame_t_ = t_ms;
      } else {
        phase_ = Phase::kIdle;
      }
      return false;
    case Phase::kPassed:
    case Phase::kIdle:
    case Phase::kGlide:
      phase_ = Phase::kIdle;
      return false;
  }
  return false;
}

void Touch::Cancel() {
  phase_ = Phase::kIdle;
  pending_ = 0;
  velocity_ = 0;
}

void Touch::BeforeNewFrame() {
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 away(-FLT_MAX, -FLT_MAX);
  switch (click_) {
    case Click::kPress:
      io.MousePos = ImVec2(click_x_, click_y_);
      io.MouseDown[0] = true;
      click_ = Click::kRelease;
      return;
    case Click::kRelease:
      io.MousePos = ImVec2(click_x_, click_y_);
      io.MouseDown[0] = false;
      click_ = Click::kLeave;
      return;
    case Click::kLeave:  // no hover left behind: a finger is not a pointer that stays
      io.MousePos = away;
      io.MouseDown[0] = false;
      click_ = Click::kNone;
      return;
    case Click::kNone:
      break;
  }
  switch (phase_) {
    case Phase::kPending:  // resting: the item under the finger shows its help
      io.MousePos = ImVec2(start_x_, start_y_);
      io.MouseDown[0] = false;
      break;
    case Phase::kScroll:
    case Phase::kPassed:
    case Phase::kGlide:
      io.MousePos = away;
      io.MouseDown[0] = false;
      break;
    case Phase::kIdle:
      break;  // a mouse, if there is one, is the backend's
  }
}

void Touch::AfterNewFrame(double t_ms) {
  if (phase_ == Phase::kScroll && pending_ != 0) {
    ScrollBy(target_, axis_, pending_);
    pending_ = 0;
  } else if (phase_ == Phase::kGlide) {
    const double dt = std::min(t_ms - frame_t_, 100.0);  // a stalled tab does not jump
    frame_t_ = t_ms;
    if (dt <= 0) return;
    const float rest = ScrollBy(target_, axis_, static_cast<float>(velocity_ * dt));
    velocity_ = static_cast<float>(velocity_ * std::exp(-dt / kGlideTimeConstantMs));
    if (std::fabs(velocity_) < kMinGlideSpeed / 2 || std::fabs(rest) > 0.5f) phase_ = Phase::kIdle;  // slow, or at an end
  }
}

unsigned Touch::FindScrollable(float x, float y, int axis, float delta) {
  ImGuiContext* g = ImGui::GetCurrentContext();
  if (!g || delta == 0) return 0;
  // The topmost window drawn last frame under the point (ImGui's own hover test, imgui.cpp
  // FindHoveredWindow), then outwards through its parents.
  ImGuiWindow* hit = nullptr;
  for (int i = g->Windows.Size - 1; i >= 0 && !hit; --i) {
    ImGuiWindow* w = g->Windows[i];
    if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_NoMouseInputs)) continue;
    if (w->OuterRectClipped.Contains(ImVec2(x, y))) hit = w;
  }
  for (ImGuiWindow* w = hit; w; w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr) {
    const size_t a = static_cast<size_t>(axis);
    const float scroll = w->Scroll[a], max = w->ScrollMax[a];
    if (max <= 0) continue;
    // A finger moving down (delta > 0) pulls the content down: it needs room above.
    if (delta > 0 ? scroll > 0.5f : scroll < max - 0.5f) return w->ID;
  }
  return 0;
}

float Touch::ScrollBy(unsigned window_id, int axis, float delta) {
  ImGuiWindow* w = ImGui::FindWindowByID(window_id);
  if (!w) return delta;
  const size_t a = static_cast<size_t>(axis);
  const float now = w->ScrollTarget[a] != FLT_MAX ? w->ScrollTarget[a] : w->Scroll[a];
  const float next = std::clamp(now - delta, 0.0f, std::max(w->ScrollMax[a], 0.0f));
  if (axis) ImGui::SetScrollY(w, next);
  else ImGui::SetScrollX(w, next);
  return delta - (now - next);
}

bool TextFieldActive() {
  const ImGuiContext* g = ImGui::GetCurrentContext();
  return g && g->ActiveId != 0 && g->InputTextState.ID == g->ActiveId;
}

std::string ActiveText() {
  if (!TextFieldActive()) return {};
  const ImGuiInputTextState& s = ImGui::GetCurrentContext()->InputTextState;
  std::string out(static_cast<size_t>(s.CurLenW) * 4 + 1, '\0');
  const int n = ImTextStrToUtf8(out.data(), static_cast<int>(out.size()), s.TextW.Data, s.TextW.Data + s.CurLenW);
  out.resize(static_cast<size_t>(n));
  return out;
}

void ReplaceActiveText(const std::string& utf8) {
  if (!TextFieldActive()) return;
  ImGuiInputTextState& s = ImGui::GetCurrentContext()->InputTextState;
  // What the field holds: its buffer less the terminator, cut at a character boundary.
  size_t n = std::min(utf8.size(), static_cast<size_t>(std::max(s.BufCapacityA - 1, 0)));
  while (n > 0 && n < utf8.size() && (static_cast<unsigned char>(utf8[n]) & 0xC0) == 0x80) --n;
  if (s.TextW.Size < s.BufCapacityA + 1) s.TextW.resize(s.BufCapacityA + 1);
  const char* end = nullptr;
  s.CurLenW = ImTextStrFromUtf8(s.TextW.Data, s.TextW.Size, utf8.data(), utf8.data() + n, &end);
  s.CurLenA = static_cast<int>(end - utf8.data());
  s.Stb.cursor = s.Stb.select_start = s.Stb.select_end = s.CurLenW;
  s.Stb.has_preferred_x = 0;
  s.Edited = true;
  s.CursorFollow = true;
  s.CursorAnimReset();
}

}  // namespace gpuplan::ui
