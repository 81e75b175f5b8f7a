package main

import (
	"io"
	"reflect"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/vbd-dev/vbd/internal/kongscope"
)

// TestScopedVarsSameGrammar: the grammar with each node holding only the
// vars it uses (kongscope.Vars) interpolates to exactly what kong makes of it
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
	if g, w := kongscope.Interpolated(got.Model.Node), kongscope.Interpolated(want.Model.Node); !reflect.DeepEqual(g, w) {
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
