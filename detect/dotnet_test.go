package detect

import (
	"encoding/json"
	"slices"
	"testing"
	"testing/fstest"
)

const testSln = `
Microsoft Visual Studio Solution File, Format Version 12.00
Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "App", "src\App\App.csproj", "{11111111-1111-1111-1111-111111111111}"
EndProject
Project("{2150E333-8FDC-42A3-9474-1A3956D46DE8}") = "tests", "tests", "{22222222-2222-2222-2222-222222222222}"
EndProject
Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "App.Tests", "tests\App.Tests\App.Tests.csproj", "{33333333-3333-3333-3333-333333333333}"
EndProject
`

const testCsproj = `<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.8.0" />
    <PackageReference Include="xunit" Version="2.6.2" />
    <ProjectReference Include="..\..\src\Lib\Lib.csproj" />
  </ItemGroup>
</Project>`

func TestDetectDotnetSwift(t *testing.T) {
	only := func(tools ...string) func(string) bool {
		return func(tool string) bool { return slices.Contains(tools, tool) }
	}
	lib := `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>`
	cases := map[string]detectCase{
		"dotnet: a solution is one check, the projects it lists are not": {
			fs:  fsOf("App.sln", testSln, "src/App/App.csproj", lib, "tests/App.Tests/App.Tests.csproj", testCsproj),
			git: true, opts: Options{LookPath: only("dotnet")},
			names: []string{"dotnet build", "dotnet test"},
			checks: []want{
				{name: "dotnet test", argv: []string{"dotnet", "test", "App.sln"}, kind: KindTest, dir: ".", source: "App.sln",
					reason: "App.sln marks a .NET solution (2 projects; dotnet builds and tests them itself", setup: "-"},
				{name: "dotnet build", argv: []string{"dotnet", "build", "App.sln"}, kind: KindBuild, skipped: "covered by dotnet test; dotnet test builds first"},
			},
		},
		"dotnet: --quick builds; dotnet missing is setup": {
			fs: fsOf("App.sln", testSln), git: true, opts: Options{Quick: true, LookPath: only()},
			checks: []want{
				{name: "dotnet build", setup: "the .NET SDK is not installed"},
				{name: "dotnet test", skipped: "quick"},
			},
		},
		"dotnet: a nested solution listing only covered projects is covered; two solutions in a dir are named by file": {
			fs: fsOf("All.sln", testSln, "Other.slnx", `<Solution><Folder Name="/x/"><Project Path="tools/Tool/Tool.csproj" /></Folder></Solution>`,
				"src/App/App.sln", "Microsoft Visual Studio Solution File\nProject(\"{X}\") = \"App\", \"App.csproj\", \"{Y}\"\n",
				"src/App/App.csproj", lib, "tools/Tool/Tool.csproj", lib),
			git:   true,
			names: []string{"dotnet build All.sln", "dotnet test All.sln", "dotnet build Other.slnx", "dotnet test Other.slnx", "dotnet build (src/App)", "dotnet test (src/App)"},
			checks: []want{
				{name: "dotnet test Other.slnx", argv: []string{"dotnet", "test", "Other.slnx"}, reason: "(1 project;"},
				{name: "dotnet test (src/App)", skipped: "covered by dotnet test All.sln; every project it lists is tested there"},
				{name: "dotnet build (src/App)", skipped: "covered by dotnet test All.sln"},
			},
		},
		"dotnet: projects no solution lists: a test project is tested, a library it references is covered, another is built": {
			fs: fsOf("tests/App.Tests/App.Tests.csproj", testCsproj, "src/Lib/Lib.csproj", lib, "tools/Gen/Gen.fsproj", lib,
				"unit/U.csproj", `<Project><PropertyGroup><IsTestProject>true</IsTestProject></PropertyGroup></Project>`),
			git: true,
			checks: []want{
				{name: "dotnet test (tests/App.Tests)", argv: []string{"dotnet", "test", "App.Tests.csproj"}, dir: "tests/App.Tests", reason: "a .NET test project that no solution lists"},
				{name: "dotnet build (src/Lib)", argv: []string{"dotnet", "build", "Lib.csproj"}, skipped: "covered by dotnet test (tests/App.Tests); that test project references it, so dotnet test builds it"},
				{name: "dotnet build (tools/Gen)", argv: []string{"dotnet", "build", "Gen.fsproj"}, kind: KindBuild, reason: "not a test project: it is built, not tested"},
				{name: "dotnet test (unit)", kind: KindTest},
			},
		},
		"dotnet: a solution that is not one and a project that is not XML are error rows": {
			fs:  fsOf("Bad.sln", "hello", "x/X.csproj", "<Project><ItemGroup>"),
			git: true,
			checks: []want{
				{name: "read Bad.sln", err: "no \"Microsoft Visual Studio Solution File\" header", skipped: "error: cannot read Bad.sln: vbd cannot read it as a solution (it has no \"Microsoft Visual Studio Solution File\" header); fix it so dotnet and vbd can read it"},
				{name: "read x/X.csproj", err: "not valid XML", skipped: "error: cannot read x/X.csproj: it is not valid XML (XML syntax error on line 1: unexpected EOF); fix it so dotnet and vbd can read it"},
			},
		},
		"swift: swift test per package, swift build covered": {
			fs:  fsOf("Package.swift", "// swift-tools-version:5.9\n", "Tools/Gen/Package.swift", "", ".build/checkouts/dep/Package.swift", ""),
			git: true, opts: Options{LookPath: only("swift")},
			names: []string{"swift build", "swift test", "swift build (Tools/Gen)", "swift test (Tools/Gen)"},
			checks: []want{
				{name: "swift test", argv: []string{"swift", "test"}, kind: KindTest, source: "Package.swift", setup: "-",
					reason: "Package.swift marks a Swift package; swift is on PATH; swift test builds the package and runs its XCTest and Swift Testing tests"},
				{name: "swift build", argv: []string{"swift", "build"}, kind: KindBuild, skipped: "covered by swift test; swift test builds first"},
			},
		},
		"swift: --quick builds, swift missing is setup": {
			fs: fsOf("Package.swift", ""), git: true, opts: Options{Quick: true, LookPath: only()},
			checks: []want{{name: "swift build", setup: "the Swift toolchain is not installed"}, {name: "swift test", skipped: "quick"}},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { checkPlan(t, c, runDetect(t, c)) })
	}
}

// A solution, a project file and a deno.json are the user's files, read
// as they are: no input makes detection fail or plan a broken check, and
// JSONC that is plain JSON reads the same.
func FuzzDotnetDeno(f *testing.F) {
	f.Add([]byte(testSln))
	f.Add([]byte(testCsproj))
	f.Add([]byte(`<Solution><Project Path="a\b.csproj"/></Solution>`))
	f.Add([]byte(`{"tasks": {"test": {"command": "deno test"}, /* x */ "lint": "deno lint",}, // y` + "\n}"))
	f.Add([]byte(`{"a": "// not a comment", "b": "\"/*\""}`))
	f.Add([]byte(`"unterminated \`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = solutionProjects("x.sln", data)
		_, _ = solutionProjects("x.slnx", data)
		_, _ = parseDotnetProject(data)
		_, _ = parseDenoConfig(data)
		if json.Valid(data) {
			var plain, stripped any
			if json.Unmarshal(data, &plain) == nil && json.Unmarshal(stripJSONC(data), &stripped) != nil {
				t.Fatalf("stripJSONC broke valid JSON %q into %q", data, stripJSONC(data))
			}
		}
		files := []string{"A.sln", "a/A.csproj", "b/B.slnx", "deno.jsonc", "d/deno.json"}
		fsys := fstest.MapFS{}
		for _, p := range files {
			fsys[p] = &fstest.MapFile{Data: data}
		}
		plan, err := Detect(fsys, Options{Files: files})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}
