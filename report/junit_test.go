package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// junitXSD is the common JUnit schema (Jenkins' junit-10.xsd, the one CI
// systems read) restated as rules: for each element, the attributes it may
// have, those it must have, and the child elements it may contain. Text is
// allowed in failure, error, skipped, system-out and system-err.
var junitXSD = map[string]struct {
	attrs, required, children []string
	text                      bool
}{
	"testsuites": {attrs: []string{"name", "time", "tests", "failures", "disabled", "errors"}, children: []string{"testsuite"}},
	"testsuite": {
		attrs: []string{"name", "tests", "failures", "errors", "time", "disabled", "skipped", "skips", "timestamp",
			"hostname", "id", "package", "assertions", "file", "skip", "log", "url"},
		required: []string{"tests"},
		children: []string{"testsuite", "properties", "testcase", "system-out", "system-err"},
	},
	"properties": {children: []string{"property"}},
	"property":   {attrs: []string{"name", "value"}, required: []string{"name", "value"}},
	"testcase": {
		attrs:    []string{"name", "assertions", "time", "timestamp", "classname", "status", "class", "file", "line", "log", "group", "url"},
		required: []string{"name"},
		children: []string{"skipped", "error", "failure", "system-out", "system-err"},
	},
	"failure":    {attrs: []string{"type", "message"}, text: true},
	"error":      {attrs: []string{"type", "message"}, text: true},
	"skipped":    {attrs: []string{"type", "message"}, text: true},
	"system-out": {text: true},
	"system-err": {text: true},
}

// junitSequence is the XSD's xs:sequence for the elements whose children
// come in a fixed order, each with how often it may occur (1 = at most once).
var junitSequence = map[string][]struct {
	name string
	once bool
}{
	"testsuite": {{"properties", true}, {"testcase", false}, {"system-out", true}, {"system-err", true}},
	"testcase":  {{"skipped", true}, {"error", false}, {"failure", false}, {"system-out", false}, {"system-err", false}},
}

// validateJUnit checks a document against junitXSD with encoding/xml's
// tokenizer, which also proves it is well-formed XML.
func validateJUnit(t *testing.T, data []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []string
	// seen[i] counts the children of stack[i] by name; last[i] is the
	// position in junitSequence of the latest one.
	var seen []map[string]int
	var last []int
	roots := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, data)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			name := tok.Name.Local
			rule, ok := junitXSD[name]
			if !ok {
				t.Fatalf("element <%s> is not in the JUnit schema", name)
			}
			if len(stack) == 0 {
				roots++
				if name != "testsuites" && name != "testsuite" {
					t.Fatalf("root element <%s>", name)
				}
			} else if parent := stack[len(stack)-1]; !slices.Contains(junitXSD[parent].children, name) {
				t.Fatalf("<%s> may not contain <%s>", parent, name)
			} else if seq, ok := junitSequence[parent]; ok {
				top := len(stack) - 1
				pos := slices.IndexFunc(seq, func(e struct {
					name string
					once bool
				}) bool {
					return e.name == name
				})
				if pos >= 0 {
					if pos < last[top] {
						t.Fatalf("<%s> comes after a later element of <%s>'s sequence", name, parent)
					}
					seen[top][name]++
					if seq[pos].once && seen[top][name] > 1 {
						t.Fatalf("<%s> holds more than one <%s>", parent, name)
					}
					last[top] = pos
				}
			}
			var have []string
			for _, a := range tok.Attr {
				if !slices.Contains(rule.attrs, a.Name.Local) {
					t.Fatalf("<%s> may not have attribute %q", name, a.Name.Local)
				}
				have = append(have, a.Name.Local)
			}
			for _, req := range rule.required {
				if !slices.Contains(have, req) {
					t.Fatalf("<%s> lacks required attribute %q", name, req)
				}
			}
			stack = append(stack, name)
			seen = append(seen, map[string]int{})
			last = append(last, 0)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			seen, last = seen[:len(seen)-1], last[:len(last)-1]
		case xml.CharData:
			if len(stack) > 0 && !junitXSD[stack[len(stack)-1]].text && strings.TrimSpace(string(tok)) != "" {
				t.Fatalf("<%s> may not hold text %q", stack[len(stack)-1], tok)
			}
		}
	}
	if roots != 1 {
		t.Fatalf("%d root elements", roots)
	}
}

// parsed mirrors what a CI system reads from the document.
type parsed struct {
	Suites []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Time     string `xml:"time,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Classname string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestJUnit(t *testing.T) {
	var buf bytes.Buffer
	if err := JUnit(&buf, fixture()); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	validateJUnit(t, data)
	if bytes.Contains(data, []byte("\x1b")) {
		t.Fatal("a terminal escape reached the XML, which XML 1.0 cannot hold")
	}
	var doc parsed
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuites, want one per run", len(doc.Suites))
	}
	s := doc.Suites[0]
	if s.Tests != 7 || s.Failures != 3 || s.Errors != 1 || s.Skipped != 2 || s.Time != "12.400" {
		t.Fatalf("suite counts: tests=%d failures=%d errors=%d skipped=%d time=%s", s.Tests, s.Failures, s.Errors, s.Skipped, s.Time)
	}
	if len(s.Cases) != 7 {
		t.Fatalf("%d testcases, want one per check", len(s.Cases))
	}
	for _, c := range s.Cases {
		if c.Classname == "" || c.Name == "" {
			t.Fatalf("testcase without classname or name: %+v", c)
		}
		if _, err := strconv.ParseFloat(c.Time, 64); err != nil {
			t.Fatalf("testcase %s time %q", c.Name, c.Time)
		}
	}
	test := s.Cases[1]
	if test.Name != "go test" || test.Classname != "vbd.test" || test.Failure == nil || test.Failure.Message != "fail (exit 1)" {
		t.Fatalf("failing check: %+v", test)
	}
	for _, want := range []string{"$ cd svc && go test ./...", "--- FAIL: TestAdd", "<&> 100%", "full log: /repo/.git/vbd/logs/x/go-test.log"} {
		if !strings.Contains(test.Failure.Body, want) {
			t.Errorf("failure body lacks %q:\n%s", want, test.Failure.Body)
		}
	}
	if v := s.Cases[2]; v.Skipped == nil || v.Skipped.Message != "vacuous (no tests found)" || !strings.Contains(v.Skipped.Body, "No tests found") {
		t.Fatalf("vacuous check: %+v", v)
	}
	if c := s.Cases[3]; c.Skipped == nil || c.Skipped.Message != "skipped (quick)" {
		t.Fatalf("skipped check: %+v", c)
	}
	if c := s.Cases[4]; c.Failure == nil || c.Failure.Message != "not run (budget)" {
		t.Fatalf("budget-cut check must fail the suite: %+v", c)
	}
	if c := s.Cases[5]; c.Error == nil {
		t.Fatalf("check that could not start: %+v", c)
	}
	if c := s.Cases[0]; c.Failure != nil || c.Error != nil || c.Skipped != nil {
		t.Fatalf("passing check has a result element: %+v", c)
	}
	props := map[string]string{}
	for _, p := range s.Props {
		props[p.Name] = p.Value
	}
	if props["vbd.verdict"] != "failed" || props["vbd.mode"] != "full" || len(props["vbd.fingerprint"]) != 64 {
		t.Fatalf("properties: %v", props)
	}
}
