// Package kongscope scopes kong's ${vars} to the command nodes that use
// them. kong interpolates each flag and argument against every var in
// scope, the vars' own values included, with a regexp each time: a dozen
// lists at the root of a grammar made that most of kong.New, paid by every
// process before it parsed a word. Interpolation and what it yields stay
// kong's own; only what is in scope at each node changes.
package kongscope

import (
	"strings"

	"github.com/alecthomas/kong"
)

// Vars is the kong option that hands each command node only the vars its
// own strings use (help, placeholders, defaults, enums, envs, its own
// set:"name=value" tags) and the vars those name in turn, instead of every
// var at the root.
func Vars() kong.Option {
	return kong.PostBuild(func(k *kong.Kong) error {
		all := k.Model.Tag.Vars
		var scope func(n *kong.Node, own kong.Vars)
		scope = func(n *kong.Node, own kong.Vars) {
			used := make(kong.Vars, len(own))
			strs := []string{n.Help}
			for name, v := range own { // a node's own set:"name=value"
				used[name] = v
				strs = append(strs, v)
			}
			values := append(append([]*kong.Value{}, n.Positional...), n.Argument)
			for _, f := range n.Flags {
				values = append(values, f.Value)
				strs = append(strs, f.PlaceHolder)
			}
			for _, v := range values {
				if v == nil || v.Tag == nil {
					continue
				}
				strs = append(append(strs, v.Help, v.Default, v.Enum), v.Tag.Envs...)
				for _, tv := range v.Tag.Vars {
					strs = append(strs, tv)
				}
			}
			for _, s := range strs {
				useVars(used, all, s)
			}
			n.Tag.Vars = used
			for _, child := range n.Children {
				scope(child, child.Tag.Vars)
			}
		}
		scope(k.Model.Node, nil)
		return nil
	})
}

// useVars copies into used each var of all that s names as ${name} or
// ${name=default}, and the vars those values name in turn. A $$ is a
// literal dollar. Naming more than kong would read costs a little time,
// never a different result.
func useVars(used, all kong.Vars, s string) {
	for i := 0; i < len(s)-1; i++ {
		switch {
		case s[i] != '$':
		case s[i+1] == '$':
			i++
		case s[i+1] == '{':
			end := strings.IndexAny(s[i+2:], "=}")
			if end < 0 {
				return
			}
			name := s[i+2 : i+2+end]
			if v, ok := all[name]; ok {
				if _, done := used[name]; !done {
					used[name] = v
					useVars(used, all, v)
				}
			}
		}
	}
}

// Interpolated is every string kong interpolates in the grammar below n,
// node by node, as it stands: what two builds of one grammar must agree
// on for their help, enums, defaults and completion to read the same.
func Interpolated(n *kong.Node) []string {
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
		out = append(out, Interpolated(c)...)
	}
	return out
}
