package detect

import (
	"testing"
	"testing/fstest"
)

// The parsers of the third round's markers read untrusted files: a
// CMakePresets.json, a mix.exs, a CI file, a tox.ini. Each must never
// panic, and a plan made from any of them keeps the plan's invariants.

func FuzzCMakePresets(f *testing.F) {
	f.Add([]byte(`{"configurePresets":[{"name":"dev"}],"testPresets":[{"name":"t","configurePreset":"dev"}]}`))
	f.Add([]byte(`{"testPresets":[{"name":"t","configurePreset":"'; rm -rf /"}],"configurePresets":[{"name":"'; rm -rf /"}]}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		test, cfg := testPreset(data)
		if test != "" && cfg == "" {
			t.Fatalf("test preset %q without a configure preset", test)
		}
		plan, err := Detect(fstest.MapFS{"CMakeLists.txt": {}, "CMakePresets.json": {Data: data}},
			Options{Files: []string{"CMakeLists.txt", "CMakePresets.json"}})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}

func FuzzMixExs(f *testing.F) {
	f.Add([]byte("defp deps do\n  [{:jason, \"~> 1.4\"}, # {:credo, \"1\"}\n   {:credo, \"~> 1.7\", only: :dev}]\nend\n"))
	f.Add([]byte("\"unterminated # {:x, 1}\n\\"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range mixDeps(data) {
			if d == "" {
				t.Fatal("an empty dependency name")
			}
		}
		plan, err := Detect(fstest.MapFS{"mix.exs": {Data: data}}, Options{Files: []string{"mix.exs"}})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}

func FuzzCIAndTox(f *testing.F) {
	f.Add([]byte("jobs:\n  t:\n    steps:\n      - run: |\n          pip install tox\n          tox -e py\n"), []byte("[tox]\nenvlist = py\n"))
	f.Add([]byte("script:\n  - python -m nox -s 'x y'\n  - echo $(\n"), []byte("[testenv:lint]\n"))
	f.Fuzz(func(t *testing.T, ci, ini []byte) {
		_ = ciLinePrograms(ci)
		fsys := fstest.MapFS{".github/workflows/ci.yml": {Data: ci}, "tox.ini": {Data: ini}, "noxfile.py": {}, "test_a.py": {}}
		plan, err := Detect(fsys, Options{Files: []string{"tox.ini", "noxfile.py", "test_a.py"}})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}
