package gate

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Suppression comments (issue 21 §1): a linter's finding, or a pre-commit
// hook's, goes away with a comment that tells the tool to look away
// (`x = 1  # type: ignore`, `//nolint`, `// eslint-disable-next-line`),
// and the code it found stays as it was. A check that is no test, failing
// in the session and passing now after such comments were added, is
// questioned once, naming the files, as a change of the tests alone is.
// Counted per source file, where srcdigest reads it anyway.

// suppressionMarkers are the comments' words, lower case.
var suppressionMarkers = []string{
	"noqa", "type: ignore", "mypy: ignore-errors", "pyright: ignore", "pylint: disable", "pylint:disable",
	"nolint", "lint:ignore", "nosec", "eslint-disable", "@ts-ignore", "@ts-nocheck", "@ts-expect-error",
	"biome-ignore", "deno-lint-ignore", "prettier-ignore", "shellcheck disable", "rubocop:disable",
	"phpcs:ignore", "@phpstan-ignore", "#[allow(", "@suppresswarnings", "fmt: off", "fmt: skip",
}

// suppressions counts the suppression comments in src.
func suppressions(src []byte) int {
	low := bytes.ToLower(src)
	n := 0
	for _, m := range suppressionMarkers {
		n += bytes.Count(low, []byte(m))
	}
	return n
}

// suppressionsAdded are the files of now that hold more suppression
// comments than they did in was (a new file: more than none), sorted.
func suppressionsAdded(was, now map[string]FileDigest) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(now)) {
		if now[p].Sup > was[p].Sup {
			out = append(out, p)
		}
	}
	return out
}

func suppressed(fc FailingCheck) Finding {
	who := quoteName(fc.Check)
	if len(fc.Names) > 0 {
		who = joinShort(fc.Names)
	}
	return Finding{Kind: FindSuppressed, Key: "suppressed\x00" + fc.Check + "\x00" + strings.Join(fc.Suppressed, "\x00"),
		Text: fmt.Sprintf("%s failed earlier in this session and passes now after suppression comments were added (%s): what it found is still in the code", who, listed(fc.Suppressed))}
}
