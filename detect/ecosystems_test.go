package detect

import (
	"strings"
	"testing"
)

// The registry is the one list of ecosystems: each id and marker file
// appears once, and every ecosystem that detects names what marks it.
func TestEcosystemsRegistry(t *testing.T) {
	ids := map[ecoID]bool{}
	markers := map[string]ecoID{}
	for _, e := range ecosystems() {
		if e.id == "" || ids[e.id] {
			t.Errorf("ecosystem id %q is empty or listed twice", e.id)
		}
		ids[e.id] = true
		for _, m := range e.markers {
			if other, ok := markers[m]; ok {
				t.Errorf("marker %s is both %s's and %s's", m, other, e.id)
			}
			markers[m] = e.id
		}
		if e.detect != nil && len(e.markers) == 0 {
			t.Errorf("%s detects but has no markers", e.id)
		}
		if (e.scan == nil) != (e.covers == nil) && e.id != ecoMake {
			t.Errorf("%s: a recipe scanner and its coverage come together", e.id)
		}
	}
	if first := ecosystems()[0].id; first != ecoConfig {
		t.Errorf("configured checks come first, not %s", first)
	}
	for _, want := range []string{"go.mod", "package.json", "Makefile", "Cargo.toml", "turbo.json"} {
		if !strings.Contains(SupportedMarkers(), want) {
			t.Errorf("SupportedMarkers() = %q lacks %s", SupportedMarkers(), want)
		}
	}
	if tools := KnownTools(); !tools["just"] || !tools["go"] || tools["sh"] {
		t.Errorf("KnownTools() = %v", tools)
	}
}
