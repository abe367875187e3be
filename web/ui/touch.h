// web/ui/touch.h — fingers on the page. ImGui 1.86 knows only a mouse, and the browser's own
// mouse emulation of a touch screen gives neither scrolling nor a one-tap click nor a keyboard.
// The page (web/host) hands every touch here instead:
//   - a finger that lifts without travelling is a click at that point (one tap, one click);
//   - a finger that travels more than a few pixels scrolls, along the axis it moved most, the
//     innermost window under it that can still scroll that way (a combo's list, a table, the
//     panel); when nothing there can, the host page scrolls instead (an embed in an article);
//   - a scroll keeps going after the finger lifts and slows down (inertia, as native lists do);
//   - a finger resting on an item is a hover: the item's help shows while it rests.
// The native window gets SDL's own touch-to-mouse emulation and never uses this.
#pragma once

#include <string>

namespace gpuplan::ui {

class Touch {
 public:
  // What the host should do with the browser's event.
  enum Answer : int {
    kPass = 0,        // leave it to the browser (the host page scrolls)
    kConsumed = 1,    // the page handled it: preventDefault
    kTextField = 2,   // (with kConsumed) the tap activated a text field: open the on-screen keyboard
  };

  // Coordinates in the UI's units (CSS pixels on the page), time in milliseconds.
  // One finger at a time: the host cancels the gesture when a second one lands (a pinch is the
  // browser's).
  void Down(float x, float y, double t_ms);
  // kConsumed while the page scrolls; kPass when nothing under the finger can scroll that way.
  int Move(float x, float y, double t_ms);
  // True when the touch was a tap: the host then draws two frames at once (press, release), so
  // the click lands, and asks TextFieldActive() while the browser still counts the tap as a
  // user gesture (an on-screen keyboard opens only then).
  bool Up(float x, float y, double t_ms);
  void Cancel();

  // Between the platform backend's NewFrame and ImGui::NewFrame: the mouse this frame.
  void BeforeNewFrame();
  // After ImGui::NewFrame, before any window is drawn: this frame's scrolling and inertia.
  void AfterNewFrame(double t_ms);
  // Inertia running or a click still to deliver: the host keeps drawing.
  bool Animating() const { return phase_ == Phase::kGlide || click_ != Click::kNone; }
  bool Active() const { return phase_ != Phase::kIdle || click_ != Click::kNone; }

  // The innermost window drawn last frame under (x, y) that can scroll along `axis` (0: x,
  // 1: y) in the direction of `delta` (> 0: the content moves right or down, as with a finger);
  // 0 when none can. The page asks it for the wheel too: an embed lets the wheel through to
  // the article when nothing under the pointer can take it.
  static unsigned FindScrollable(float x, float y, int axis, float delta);

  // Tuning, in CSS pixels and milliseconds (Android's touch slop is 8 dp; the glide's time
  // constant is the one iOS's UIScrollView uses for normal deceleration, ~325 ms).
  static constexpr float kSlop = 8.0f;
  static constexpr double kGlideTimeConstantMs = 325.0;
  static constexpr double kVelocityWindowMs = 100.0;  // the last samples that set the glide's speed
  static constexpr float kMinGlideSpeed = 0.05f;      // px/ms below which a lift just stops

 private:
  enum class Phase { kIdle, kPending, kScroll, kPassed, kGlide };
  enum class Click { kNone, kPress, kRelease, kLeave };
  // Scrolls the window by `delta` along the axis; returns the part it could not take (at an end).
  static float ScrollBy(unsigned window_id, int axis, float delta);

  Phase phase_ = Phase::kIdle;
  Click click_ = Click::kNone;
  float start_x_ = 0, start_y_ = 0, last_x_ = 0, last_y_ = 0, click_x_ = 0, click_y_ = 0;
  int axis_ = 1;
  bool stopped_glide_ = false;  // this finger stopped a glide: its lift is not a click
  unsigned target_ = 0;
  float pending_ = 0;      // finger travel not yet applied (events arrive between frames)
  double last_t_ = 0, frame_t_ = 0;
  float velocity_ = 0;     // px/ms along the axis, smoothed over the last samples
};

// True once a finger has touched the page: a picker then does not put the keyboard's focus in
// its search box on opening (an on-screen keyboard would cover the list).
bool TouchUsed();

// The text field a tap activated, edited through the page's hidden <input> (the on-screen
// keyboard and IME type into that element; its whole value comes here on every change).
// The active field's text; empty when no text field is active.
bool TextFieldActive();
std::string ActiveText();
// Replaces the active field's text, the cursor at its end (cut to what the field holds).
void ReplaceActiveText(const std::string& utf8);

}  // namespace gpuplan::ui
