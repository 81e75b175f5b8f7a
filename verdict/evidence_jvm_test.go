package verdict

import (
	"slices"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

// The failing tests come first by name, with their trace, and the passing
// test classes are the ratchet's names (hand-written output: see the
// fixtures' rows in evidence_test.go).
func TestJVMFailuresAndNames(t *testing.T) {
	mvn := evidenceOf(detect.Check{Kind: detect.KindTest, Runner: detect.RunnerMaven}, readLines(t, "maven-fail"), 1)
	var names []string
	for _, f := range mvn.Failures {
		names = append(names, f.Name)
	}
	if want := []string{"com.example.AppTest.addsWrong", "com.example.AppTest.throwsUp"}; !slices.Equal(names, want) {
		t.Errorf("maven failures %q, want %q", names, want)
	}
	if want := []string{"com.example.OtherTest"}; !slices.Equal(mvn.PassedNames, want) {
		t.Errorf("maven passed names %q, want %q", mvn.PassedNames, want)
	}
	pass := evidenceOf(detect.Check{Kind: detect.KindTest, Runner: detect.RunnerMaven}, readLines(t, "maven-reactor-pass"), 0)
	if want := []string{"com.example.core.MathTest", "com.example.core.TextTest", "com.example.app.AppTest"}; !slices.Equal(pass.PassedNames, want) {
		t.Errorf("maven passed names %q, want %q", pass.PassedNames, want)
	}
	gr := evidenceOf(detect.Check{Kind: detect.KindTest, Runner: detect.RunnerGradle}, readLines(t, "gradle-fail"), 1)
	if len(gr.Failures) != 1 || gr.Failures[0].Name != "com.example.AppTest > addsWrong()" {
		t.Fatalf("gradle failures %+v", gr.Failures)
	}
}
