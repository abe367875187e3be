// web/ui/tables.h — tables of records (records.h): the rows the CLI prints, on the page.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/records.h"
#include "gpuplan/scenario.h"

namespace gpuplan::ui {

// The formula and terms behind the number just drawn, shown when the mouse is over it (or
// the keyboard's focus is on it).
void ItemTip(const std::string& text);

// Text wrapped to the space left, at spaces only: ImGui's own wrap also breaks after '.' and
// ',', which split "8,192" and "16.000" across lines. A word wider than the line stands alone
// on its line. '\n' starts a new line. Join words that must stay together with a no-break
// space (kNbsp).
void Paragraph(std::string_view text);
inline constexpr const char* kNbsp = "\xC2\xA0";

// For a row of items that wraps (buttons, legend entries): before each item but the row's first,
// puts it on the same line when `width` more fits in the window, else on the next line.
void SameLineIfFits(float width, float spacing = -1.0f);

// After a text field: while it is being typed into, keep it in view in its window and the
// windows around it (an on-screen keyboard shrinks the page under it).
void KeepTypingInView();

// A field's label in the reader's language, with its key as the widget's id ("Context###context"):
// the widget keeps its state when the language changes.
std::string FieldLabel(const FieldInfo& f);

// Any records (records.h) as a table: the cells' text, numbers right-aligned, the last text
// column wrapping. Where the columns do not fit side by side (a phone), each row becomes a
// block: its name, then its short cells as "header value" pairs, then its long text — nothing
// cut, no number split. The generic panel of a view without one of its own.
void RecordsTable(const char* id, const Records& r);

}  // namespace gpuplan::ui
