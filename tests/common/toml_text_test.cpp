#include "common/toml_text.h"

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <random>
#include <string>

namespace ssdlab {
namespace {

// Valid TOML with non-ASCII text where TOML allows it: accepted, and toml++
// reads the strings back.
TEST(TomlText, AcceptsNonAsciiInStringsKeysAndComments) {
  const char* const valid[] = {
      "name = \"é\"\n",
      "name = 'é'  # é\n",
      "a.\"é\" = 1\n",
      "\"é\".b = 2\n",
      "x = [\"é\", 'é']\n",
      "x = [\n  \"é\",  # é\n  'é',\n]\n",
      "t = { k = \"é\", \"é\" = 'é' }\n",
      "[\"é\"]\nk = \"é\"\n",
      "[[\"é\".b]]\nk = 1\n",
      "s = \"\"\"é\n\"é\"\"\"\"\nl = '''é'''\n",
      "x = [[1, 2], [\"é\"]]\ny = [{a = \"é\"}, {b = 'é'}]\n",
  };
  for (const char* text : valid) {
    EXPECT_EQ(non_ascii_outside_strings(text), 0u) << text;
    EXPECT_NO_THROW(static_cast<void>(toml::parse(text))) << text;
  }
}

// Where toml++ scans a bare value (up to a value terminator) a quote opens no
// string; the first three were found by fuzz/sweep_fuzz.
TEST(TomlText, RefusesNonAsciiThatTheParserScansAsCode) {
  const std::pair<const char*, std::size_t> refused[] = {
      {"configs = +[\"\xd1\x88o rk/\\\\conf", 1},
      {"x = 1.\"é\"\n", 1},
      {"x = 1=\"é\"\n", 1},
      {"a = 1\nx = true[\"é\"]\n", 2},
      {"x = [1 \"é\"]\n", 1},
      {"x = \"a\"é\n", 1},
      {"é = 1\n", 1},
      {"x = 'a'\ny = 1 # ok\nz = é\n", 3},
      {"x = \"\\é\"\n", 1},
      {"x = \"a\x01\"\n", 1},
      {"x = \"\"\"\n\"\"\"\n\"\"\"a\\ é\"\"\"\n", 3},  // found by the test below
  };
  for (const auto& [text, line] : refused) EXPECT_EQ(non_ascii_outside_strings(text), line) << text;
}

// Random texts of TOML's punctuation and a non-ASCII letter: whatever the
// check lets through, toml++ parses or refuses with an error. (The
// sanitizer build in CI turns toml++'s undefined behaviour, which the check
// exists to avoid, into a failure.)
TEST(TomlText, WhatItAcceptsTheParserReadsOrRefusesCleanly) {
  const std::string pieces[] = {"a",  "1", "=",  "+", ".", "[",  "]", "{", "}",      ",",
                                "\"", "'", "\\", "#", " ", "\n", "é", "-", "\"\"\"", "'''"};
  std::mt19937_64 rng(7);
  std::size_t accepted = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text = n % 2 ? "x = " : "";
    const std::size_t length = 1 + rng() % 16;
    for (std::size_t i = 0; i < length; ++i) text += pieces[rng() % std::size(pieces)];
    if (non_ascii_outside_strings(text) != 0) continue;
    ++accepted;
    try {
      static_cast<void>(toml::parse(text));
    } catch (const toml::parse_error&) {
    }
  }
  EXPECT_GT(accepted, 1000u);  // the property is tested on many texts
}

// toml++ 3.3 garbles a key given twice ('"titiming.read_us" '): the
// description names the key as the line writes it.
TEST(TomlText, AKeyGivenTwiceIsNamedAsTheLineWritesIt) {
  const std::string text = "[grid]\n\"timing.read_us\" = [1, 2]\n\"timing.read_us\" = [3]\n";
  try {
    (void)toml::parse(text);
    FAIL() << "toml++ accepted a key given twice";
  } catch (const toml::parse_error& error) {
    const std::size_t line = error.source().begin.line;
    EXPECT_EQ(line, 3u);
    EXPECT_EQ(toml_error_description(error.description(), text, line),
              "'\"timing.read_us\"' is given twice (a key or table may be defined only once)");
  }
  EXPECT_EQ(toml_error_description("cannot redefine existing table 'a'", "[a]\nx = 1\n[a]\n", 3),
            "'a' is given twice (a key or table may be defined only once)");
  EXPECT_EQ(toml_error_description("expected '='", "x\n", 1), "expected '='");
}

}  // namespace
}  // namespace ssdlab
