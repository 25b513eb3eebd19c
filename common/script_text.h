// User text (paths, names, option values) written into a script or a
// line-based file (a Slurm batch script, a fio job file or iolog, a fitted
// config's comment): quoted where the format can quote it, refused where it
// cannot (issue 51: "text that reaches a shell or a file format is quoted or
// refused"). A newline ends a comment or an #SBATCH line and starts a line
// of its own, so no control character passes into such a file unquoted.
#pragma once

#include <string>
#include <string_view>

namespace ssdlab {

// Whether `text` holds a control character (below 0x20, tab and newline
// included, or DEL).
bool has_control(std::string_view text);

// `text` with each control character written as \n, \r, \t or \xNN (for a
// message that quotes the text).
std::string escaped_controls(std::string_view text);

// Throws ssdlab::Error "WHAT 'TEXT': a control character (\n) cannot be
// written into INTO" if `text` holds one.
void refuse_controls(std::string_view what, std::string_view text, std::string_view into);

// `text` as one bash word: in single quotes, each ' as '\'' (no expansion of
// $, `, \ or !; a newline inside stays data). Pass text through
// refuse_controls() first where the word also appears in a comment.
std::string shell_quoted(std::string_view text);

}  // namespace ssdlab
