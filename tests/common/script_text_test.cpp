// Text written into scripts and line-based files (common/script_text.h).
#include "common/script_text.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace ssdlab {
namespace {

TEST(ScriptText, ControlCharactersAreFoundAndShown) {
  EXPECT_FALSE(has_control("a b/$(c)'d"));
  EXPECT_TRUE(has_control("a\nb"));
  EXPECT_TRUE(has_control("a\tb"));
  EXPECT_TRUE(has_control("a\x7f"));
  EXPECT_EQ(escaped_controls("a\nb\rc\td\x01"), "a\\nb\\rc\\td\\x01");
  EXPECT_NO_THROW(refuse_controls("--x", "fine", "a script"));
  EXPECT_EQ(testing::error_of([] { refuse_controls("--x", "a\nb", "a script"); }),
            "--x 'a\\nb': a control character (a newline, tab, ...) cannot be written into a "
            "script");
}

TEST(ScriptText, AShellWordIsQuotedWhole) {
  EXPECT_EQ(shell_quoted("a b"), "'a b'");
  EXPECT_EQ(shell_quoted("it's $(id)"), "'it'\\''s $(id)'");
  // Run through bash, the word comes back as it was.
  const std::string text = "x'$(touch /nonexistent/p)`id`\\ \"y\"";
  const auto result = testing::run_shell("printf %s " + shell_quoted(text));
  EXPECT_EQ(result.output, text);
}

}  // namespace
}  // namespace ssdlab
