package kongscope

import (
	"reflect"
	"slices"
	"testing"

	"github.com/alecthomas/kong"
)

// TestUseVars: the vars a string names, as kong reads ${name} and
// ${name=default}, with $$ a literal dollar, and the vars their values
// name in turn.
func TestUseVars(t *testing.T) {
	all := kong.Vars{"a": "A", "b": "B ${c}", "c": "C", "d": "D"}
	for _, c := range []struct {
		s    string
		want []string
	}{
		{"no vars", nil},
		{"${a}", []string{"a"}},
		{"x ${a=def} y", []string{"a"}},
		{"$${a}", nil},
		{"$$$${a}", nil},
		{"$$${a}", []string{"a"}},
		{"${b}", []string{"b", "c"}},
		{"${unknown} ${d}", []string{"d"}},
		{"${a", nil},
	} {
		used := kong.Vars{}
		useVars(used, all, c.s)
		var got []string
		for name := range all {
			if _, ok := used[name]; ok {
				got = append(got, name)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("useVars(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestScopeVarsSetTags: a node's or a flag's own set:"name=value" vars,
// whose values name root vars in turn, interpolate as without Vars.
func TestScopeVarsSetTags(t *testing.T) {
	type grammar struct {
		Cmd struct {
			Flag string `help:"${own}, ${root}, ${mine}" set:"mine=M ${deep}" default:"${root}"`
		} `cmd:"" help:"cmd ${own}" set:"own=O ${other}"`
	}
	vars := kong.Vars{"root": "R", "other": "X", "deep": "D", "unused": "U"}
	var scoped, whole grammar
	got, err := kong.New(&scoped, vars, Vars())
	if err != nil {
		t.Fatal(err)
	}
	want, err := kong.New(&whole, vars)
	if err != nil {
		t.Fatal(err)
	}
	g, w := Interpolated(got.Model.Node), Interpolated(want.Model.Node)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("scoped %q, want %q", g, w)
	}
	if !slices.Contains(g, "O X, R, M D") {
		t.Errorf("the flag's help is not in %q", g)
	}
}
