package main

import (
	"io"
	"reflect"
	"slices"
	"testing"

	"github.com/alecthomas/kong"
)

// TestScopedVarsSameGrammar: the grammar with each node holding only the
// vars it uses (scopeVars) interpolates to exactly what kong makes of it
// with every var at the root: the same help, enums, defaults and
// placeholders, so `vbd --help`, each command's help, a refused enum and
// completion read as before. And the vars are scoped: the root, whose own
// strings name none, holds none, and vbd hook holds its own only.
func TestScopedVarsSameGrammar(t *testing.T) {
	var scoped, whole cli
	got, err := newParser(&scoped, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want, err := kong.New(&whole, parserOptions(io.Discard, io.Discard)...)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := grammarText(got.Model.Node), grammarText(want.Model.Node); !reflect.DeepEqual(g, w) {
		t.Errorf("the scoped grammar differs from the whole one:\ngot  %q\nwant %q", g, w)
	}
	if vars := got.Model.Tag.Vars; len(vars) != 0 {
		t.Errorf("the root holds vars %v, which none of its strings use", vars)
	}
	for _, n := range got.Model.Children {
		if n.Name != "hook" {
			continue
		}
		if _, ok := n.Tag.Vars["hook_max_blocks"]; !ok {
			t.Errorf("vbd hook lacks its var hook_max_blocks: %v", n.Tag.Vars)
		}
		if _, ok := n.Tag.Vars["formats"]; ok {
			t.Errorf("vbd hook holds the formats var it does not use: %v", n.Tag.Vars)
		}
	}
}

// grammarText is every string kong interpolates, node by node, after
// interpolation.
func grammarText(n *kong.Node) []string {
	out := []string{n.Path(), n.Help}
	values := append([]*kong.Value{n.Argument}, n.Positional...)
	for _, f := range n.Flags {
		values = append(values, f.Value)
		out = append(out, f.PlaceHolder)
	}
	for _, v := range values {
		if v != nil {
			out = append(append(out, v.Name, v.Help, v.Default, v.Enum), v.Tag.Envs...)
		}
	}
	for _, c := range n.Children {
		out = append(out, grammarText(c)...)
	}
	return out
}

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
// whose values name root vars in turn, interpolate as without scopeVars.
func TestScopeVarsSetTags(t *testing.T) {
	type grammar struct {
		Cmd struct {
			Flag string `help:"${own}, ${root}, ${mine}" set:"mine=M ${deep}" default:"${root}"`
		} `cmd:"" help:"cmd ${own}" set:"own=O ${other}"`
	}
	vars := kong.Vars{"root": "R", "other": "X", "deep": "D", "unused": "U"}
	var scoped, whole grammar
	got, err := kong.New(&scoped, vars, scopeVars())
	if err != nil {
		t.Fatal(err)
	}
	want, err := kong.New(&whole, vars)
	if err != nil {
		t.Fatal(err)
	}
	g, w := grammarText(got.Model.Node), grammarText(want.Model.Node)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("scoped %q, want %q", g, w)
	}
	if !slices.Contains(g, "O X, R, M D") {
		t.Errorf("the flag's help is not in %q", g)
	}
}
