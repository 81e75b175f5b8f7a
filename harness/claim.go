package harness

import (
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// claimWords are the words by which an agent says its work is done or
// checked, English first (issue 11 §2). On a tree unchanged since the
// session started, a final message holding one of them is verified rather
// than let through. Each is matched case-insensitively, at word
// boundaries, in a sentence that is not a question, and not after a
// negation or a condition in the same clause ("not done yet", "the tests
// don't pass", "tell me when it works").
//
// Missing a claim keeps today's allow (the tree is unchanged); a false
// claim costs one verification, usually reused. So the table errs towards
// matching.
var claimWords = []string{
	`done`,
	`finished`,
	`complete(?:d)?`,
	`fixed`,
	`implemented`,
	`resolved`,
	`(?:(?:the|all) )?(?:unit )?(?:tests?|checks?|builds?|suites?) (?:now )?(?:all )?(?:pass(?:es|ed)?|succeed(?:s|ed)?|(?:are |is )?(?:passing|green))`,
	`all green`,
	`verified`,
	`works`,
	`working now`,
}

// claimPattern matches any claim word.
var claimPattern = lazyre.New(`(?i)\b(?:` + strings.Join(claimWords, `|`) + `)\b`)

// negation marks a clause whose claim is denied, hypothetical or pending.
var negation = lazyre.New(`(?i)(?:\b(?:not|no|never|cannot|without|unless|until|if|once|when|whether|yet to)\b|n['’]t\b)`)

// clauseEnd splits a message into clauses; a claim counts only in its own.
var clauseEnd = lazyre.New(`[.!?;:,\n]|\s[-–—]\s|\bbut\b`)

// findClaim returns the words of the first claim of success in an agent's
// final message, as written, or "" when it makes none.
func findClaim(message string) string {
	for _, sentence := range sentences(message) {
		if strings.HasSuffix(strings.TrimSpace(sentence), "?") {
			continue
		}
		for _, loc := range claimPattern.FindAllStringIndex(sentence, -1) {
			clauseStart := 0
			for _, end := range clauseEnd.FindAllStringIndex(sentence[:loc[0]], -1) {
				clauseStart = end[1]
			}
			if !negation.MatchString(sentence[clauseStart:loc[0]]) {
				return sentence[loc[0]:loc[1]]
			}
		}
	}
	return ""
}

// sentences splits text after each ., ! or ? and each line break, keeping
// the terminator with its sentence.
func sentences(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if r == '.' || r == '!' || r == '?' || r == '\n' {
			out = append(out, text[start:i+1])
			start = i + 1
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}
