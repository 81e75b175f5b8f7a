package detect

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// RunnerDotnet is the .NET CLI (dotnet test, dotnet build): its output is
// read by the text scanner's dotnet matcher (VSTest's "Passed!  - Failed:
// 0, Passed: 12, …" per test assembly, "  Failed Name [5 ms]" per failed
// test).
const RunnerDotnet Runner = "dotnet"

// ecoDotnet is .NET solutions and projects.
const ecoDotnet ecoID = "dotnet"

// The .NET markers, known by their extension: solutions first (a
// solution builds and tests the projects it lists), then project files.
var (
	dotnetSolutionExts = []string{".sln", ".slnx"}
	dotnetProjectExts  = []string{".csproj", ".fsproj", ".vbproj"}
)

// dotnetMarkers are the registry's markers: every extension as "*.ext".
func dotnetMarkers() []string {
	var out []string
	for _, e := range slices.Concat(dotnetSolutionExts, dotnetProjectExts) {
		out = append(out, "*"+e)
	}
	return out
}

// filesWithExt lists the marker files of the tree whose extension is one
// of exts, as slash paths in plan order (by directory, then name).
func (d *detector) filesWithExt(exts []string) []string {
	var out []string
	for dir, m := range d.tree.markers {
		for name := range m {
			if slices.Contains(exts, path.Ext(name)) && len(name) > len(path.Ext(name)) {
				out = append(out, path.Join(dir, name))
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := comparePaths(path.Dir(a), path.Dir(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out
}

// slnProject is a Project line of a classic .sln file: its second quoted
// field is the project's path, relative to the solution, with backslashes.
var slnProject = lazyre.New(`(?m)^\s*Project\("[^"]*"\)\s*=\s*"[^"]*"\s*,\s*"([^"]+)"`)

// solutionProjects reads the project files a solution lists (.sln or
// .slnx), as slash paths relative to the solution's directory. Solution
// folders (entries that are no project file) are left out.
func solutionProjects(name string, data []byte) ([]string, error) {
	var raw []string
	if path.Ext(name) == ".slnx" {
		err := xmlElements(data, func(el xml.StartElement) {
			if el.Name.Local == "Project" {
				if p := xmlAttr(el, "Path"); p != "" {
					raw = append(raw, p)
				}
			}
		})
		if err != nil {
			return nil, err
		}
	} else {
		if !bytes.Contains(data, []byte("Microsoft Visual Studio Solution File")) {
			return nil, fmt.Errorf("it has no \"Microsoft Visual Studio Solution File\" header")
		}
		for _, m := range slnProject.FindAllSubmatch(data, -1) {
			raw = append(raw, string(m[1]))
		}
	}
	var out []string
	for _, p := range raw {
		p = path.Clean(strings.ReplaceAll(strings.TrimSpace(p), `\`, "/"))
		if slices.Contains(dotnetProjectExts, path.Ext(p)) {
			out = append(out, p)
		}
	}
	return out, nil
}

// dotnetProject is what detection reads of a project file.
type dotnetProject struct {
	// test: the project is a test project (IsTestProject, the test SDK
	// or a test framework's package), which `dotnet test` runs.
	test bool
	// refs are its ProjectReference paths, slash paths relative to it.
	refs []string
}

// testPackages are the packages that make a project a test project.
var testPackages = []string{"microsoft.net.test.sdk", "xunit", "xunit.v3", "nunit", "mstest", "mstest.testframework", "tunit"}

// parseDotnetProject reads a .csproj/.fsproj/.vbproj (MSBuild XML).
func parseDotnetProject(data []byte) (dotnetProject, error) {
	var p dotnetProject
	inTestFlag := false
	err := xmlElementsText(data, func(el xml.StartElement) {
		inTestFlag = false
		switch el.Name.Local {
		case "Project":
			if sdk := strings.ToLower(xmlAttr(el, "Sdk")); strings.HasPrefix(sdk, "mstest.sdk") {
				p.test = true
			}
		case "PackageReference":
			if slices.Contains(testPackages, strings.ToLower(xmlAttr(el, "Include"))) {
				p.test = true
			}
		case "ProjectReference":
			if r := xmlAttr(el, "Include"); r != "" {
				p.refs = append(p.refs, path.Clean(strings.ReplaceAll(r, `\`, "/")))
			}
		case "IsTestProject":
			inTestFlag = true
		}
	}, func(text []byte) {
		if inTestFlag {
			p.test = strings.EqualFold(strings.TrimSpace(string(text)), "true")
			inTestFlag = false
		}
	})
	return p, err
}

// xmlElements calls each for every start element of an XML document.
func xmlElements(data []byte, each func(xml.StartElement)) error {
	return xmlElementsText(data, each, func([]byte) {})
}

// xmlElementsText calls each for every start element and text for every
// run of character data, in document order.
func xmlElementsText(data []byte, each func(xml.StartElement), text func([]byte)) error {
	dec := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			each(t)
		case xml.CharData:
			text(t)
		}
	}
}

// xmlAttr is an element's attribute by local name, or "".
func xmlAttr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// detectDotnet adds one `dotnet test` per solution, top level first: a
// solution builds and tests every project it lists, so a listed project
// is never a check of its own, and a solution whose projects an earlier
// one lists already is covered by it. A project no solution lists is a
// root of its own: `dotnet test` for a test project, `dotnet build` for
// another (covered by a test project that references it).
func (d *detector) detectDotnet() {
	listed := map[string]string{} // project path -> the solution check that runs it
	for _, sln := range d.filesWithExt(dotnetSolutionExts) {
		dir := path.Dir(sln)
		data, ok := d.readMarker(ecoDotnet, dir, sln)
		if !ok {
			continue
		}
		d.project()
		projects, err := solutionProjects(sln, data)
		if err != nil {
			d.unreadable(ecoDotnet, dir, sln, fmt.Errorf("vbd cannot read it as a solution (%w); fix it so dotnet and vbd can read it", err))
			continue
		}
		test, build := d.dotnetChecks(sln, "a .NET solution ("+dotnetCount(len(projects))+"; dotnet builds and tests them itself, not one by one)")
		by, all := "", len(projects) > 0
		for _, p := range projects {
			p = path.Join(dir, p)
			if s, ok := listed[p]; ok {
				by = s
			} else {
				all = false
				listed[p] = test.Name
			}
		}
		if all {
			test.Skipped = coveredBy(by, "every project it lists is tested there")
			build.Skipped = coveredBy(by, "")
		}
		d.add(ecoDotnet, build)
		d.add(ecoDotnet, test)
	}
	type loose struct {
		file string
		proj dotnetProject
	}
	var projects []loose
	testRefs := map[string]string{} // a project a loose test project references -> that test check
	for _, file := range d.filesWithExt(dotnetProjectExts) {
		if _, ok := listed[file]; ok {
			continue
		}
		dir := path.Dir(file)
		data, ok := d.readMarker(ecoDotnet, dir, file)
		if !ok {
			continue
		}
		proj, err := parseDotnetProject(data)
		if err != nil {
			d.project()
			d.unreadable(ecoDotnet, dir, file, fmt.Errorf("it is not valid XML (%w); fix it so dotnet and vbd can read it", err))
			continue
		}
		projects = append(projects, loose{file, proj})
		if proj.test {
			name := d.dotnetName("dotnet test", file)
			for _, r := range proj.refs {
				testRefs[path.Join(dir, r)] = name
			}
		}
	}
	for _, p := range projects {
		d.project()
		if p.proj.test {
			test, build := d.dotnetChecks(p.file, "a .NET test project that no solution lists")
			d.add(ecoDotnet, build)
			d.add(ecoDotnet, test)
			continue
		}
		_, build := d.dotnetChecks(p.file, "a .NET project that no solution lists (not a test project: it is built, not tested)")
		build.Skipped = Skip{}
		if by, ok := testRefs[p.file]; ok {
			build.Skipped = coveredBy(by, "that test project references it, so dotnet test builds it")
		}
		d.add(ecoDotnet, build)
	}
}

// dotnetCount says how many projects a solution lists.
func dotnetCount(n int) string {
	if n == 1 {
		return "1 project"
	}
	return fmt.Sprintf("%d projects", n)
}

// dotnetName is a check's name: verb, and the file when its directory
// holds more than one solution or project (dotnet would refuse to guess).
func (d *detector) dotnetName(verb, file string) string {
	dir, base := path.Split(file)
	dir = path.Clean(dir)
	n := 0
	for name := range d.tree.markers[dir] {
		if slices.Contains(dotnetSolutionExts, path.Ext(name)) == slices.Contains(dotnetSolutionExts, path.Ext(base)) &&
			(slices.Contains(dotnetSolutionExts, path.Ext(name)) || slices.Contains(dotnetProjectExts, path.Ext(name))) {
			n++
		}
	}
	if n > 1 {
		return verb + " " + base + suffix(dir)
	}
	return verb + suffix(dir)
}

// dotnetChecks are the two checks of one solution or project file:
// `dotnet test FILE` (the full check) and `dotnet build FILE` (the quick
// one, covered by the test, which builds first). The file is named on the
// command line, so a directory with two solutions is not an error.
func (d *detector) dotnetChecks(file, what string) (test, build Check) {
	dir, base := path.Split(file)
	dir = path.Clean(dir)
	why, setup := "dotnet is on PATH", ""
	if !d.onPath("dotnet") {
		why, setup = "dotnet is not on PATH", "the .NET SDK is not installed: install it so that `dotnet` is on PATH"
	}
	common := file + " marks " + what + "; " + why
	mk := func(verb string, kind Kind, quick bool, reason string) Check {
		return Check{
			Name: d.dotnetName("dotnet "+verb, file), Kind: kind, Argv: []string{"dotnet", verb, base}, Dir: dir, Root: dir, Quick: quick,
			Source: file, Reason: common + "; " + reason, Runner: RunnerDotnet, Setup: setup,
		}
	}
	test = mk("test", KindTest, false,
		"dotnet test restores, builds and runs every test project's tests; 0 tests is vacuous; packages it cannot download are setup (`dotnet restore` fetches them); it writes only bin/ and obj/")
	build = mk("build", KindBuild, true, "dotnet build compiles it, the quick check")
	if !d.opts.Quick {
		build.Skipped = coveredBy(test.Name, "dotnet test builds first")
	}
	return test, build
}
