package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/verdict"
)

// The JUnit document: one <testsuite> per run inside <testsuites>, one
// <testcase> per check. Elements and attributes are those of the common
// JUnit XSD (Jenkins' junit-10.xsd), which CI systems read; encoding/xml
// replaces characters XML 1.0 cannot hold (terminal escapes in an output
// tail) with U+FFFD, so the document always parses.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	ID         string          `xml:"id,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure"`
	Error     *junitMessage `xml:"error"`
	Skipped   *junitMessage `xml:"skipped"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// JUnit writes the run as JUnit XML. A check that counts against the
// verdict (failed, timed out, not run because the budget ran out) is a
// <failure>; one that could not start or was interrupted is an <error>;
// skipped and vacuous checks are <skipped>, a vacuous one with why it
// proved nothing. Each carries the output tail.
func JUnit(w io.Writer, r *receipt.Receipt) error {
	suite := junitSuite{
		Name:      "vbd",
		Tests:     len(r.Checks),
		Time:      seconds(r.Ended.Sub(r.Started)),
		Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05"),
		ID:        r.ID,
		Properties: []junitProperty{
			{Name: "vbd.verdict", Value: r.Verdict.Word},
			{Name: "vbd.summary", Value: r.Verdict.Summary},
			{Name: "vbd.mode", Value: string(r.Mode)},
			{Name: "vbd.verified", Value: r.Verified},
			{Name: "vbd.fingerprint", Value: r.Fingerprint},
			{Name: "vbd.version", Value: r.VBDVersion},
		},
		SystemOut: strings.Join(append([]string{r.Verdict.Summary}, r.Verdict.Reasons...), "\n"),
	}
	if r.ReusedFrom != nil {
		suite.Properties = append(suite.Properties, junitProperty{Name: "vbd.reused_from", Value: r.ReusedFrom.Receipt})
	}
	for _, c := range r.Checks {
		tc := junitCase{Classname: "vbd." + c.Kind, Name: c.Name, Time: seconds(time.Duration(c.DurationNS))}
		label := statusLabel(c)
		body := junitBody(c)
		switch verdict.Status(c.Status) {
		case verdict.Fail, verdict.Timeout, verdict.NotRun:
			tc.Failure = &junitMessage{Message: label, Type: c.Status, Body: body}
			suite.Failures++
		case verdict.Error, verdict.Interrupted, verdict.Setup:
			tc.Error = &junitMessage{Message: label, Type: c.Status, Body: body}
			suite.Errors++
		case verdict.Skipped, verdict.Vacuous:
			tc.Skipped = &junitMessage{Message: label, Body: body}
			suite.Skipped++
		case verdict.Pass:
			// A passing test case is a bare <testcase>.
		}
		suite.Cases = append(suite.Cases, tc)
	}
	doc := junitSuites{
		Name: "vbd", Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors, Time: suite.Time,
		Suites: []junitSuite{suite},
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	return nil
}

// junitBody is the command and output tail shown under a non-passing case.
func junitBody(c receipt.Check) string {
	var b strings.Builder
	b.WriteString("$ " + commandIn(c) + "\n")
	for _, l := range failingTestLines(c) {
		b.WriteString(l + "\n")
	}
	for _, l := range c.Tail {
		b.WriteString(l + "\n")
	}
	if l := logLine(c.LogNote, c.Log); l != "" {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// seconds formats a duration as JUnit's time attribute: decimal seconds.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.3f", max(d, 0).Seconds())
}
