package detect

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// pyConfig is what a Python project's configuration files say about its
// checks: where pytest, ruff, mypy and pyright are configured.
type pyConfig struct {
	// pytest names the file and section configuring pytest, or "".
	pytest string
	ruff   string
	mypy   string
	// mypyFiles is true when the configuration names the files to check,
	// so `mypy` needs no argument.
	mypyFiles bool
	pyright   string
}

// parsePyproject reads the [tool.*] tables of a pyproject.toml that
// configure checks.
func parsePyproject(data []byte, cfg *pyConfig) error {
	var raw struct {
		Tool map[string]any `toml:"tool"`
	}
	if err := toml.Unmarshal(data, &raw); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return fmt.Errorf("line %d column %d: %s", row, col, de.Error())
		}
		return err
	}
	tool := raw.Tool
	if p, ok := tool["pytest"].(map[string]any); ok {
		if _, ok := p["ini_options"]; ok {
			cfg.pytest = firstOf(cfg.pytest, "pyproject.toml [tool.pytest.ini_options]")
		}
	}
	if _, ok := tool["ruff"]; ok {
		cfg.ruff = firstOf(cfg.ruff, "pyproject.toml [tool.ruff]")
	}
	if m, ok := tool["mypy"].(map[string]any); ok {
		cfg.mypy = firstOf(cfg.mypy, "pyproject.toml [tool.mypy]")
		if _, ok := m["files"]; ok {
			cfg.mypyFiles = true
		}
	}
	if _, ok := tool["pyright"]; ok {
		cfg.pyright = firstOf(cfg.pyright, "pyproject.toml [tool.pyright]")
	}
	return nil
}

// iniSections reads an INI file's section names and, per section, its
// keys: setup.cfg, tox.ini, pytest.ini and mypy.ini are read only for
// which sections they hold.
func iniSections(data []byte) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	var cur map[string]bool
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[' && strings.HasSuffix(line, "]"):
			name := strings.TrimSpace(line[1 : len(line)-1])
			if out[name] == nil {
				out[name] = map[string]bool{}
			}
			cur = out[name]
		case cur != nil:
			if k, _, ok := strings.Cut(line, "="); ok {
				cur[strings.TrimSpace(k)] = true
			}
		}
	}
	return out
}

// readINI records the checks an INI file configures.
func readINI(name string, data []byte, cfg *pyConfig) {
	s := iniSections(data)
	switch name {
	case "pytest.ini":
		if s["pytest"] != nil || s["tool:pytest"] != nil {
			cfg.pytest = firstOf(cfg.pytest, "pytest.ini")
		} else {
			// pytest uses a pytest.ini even without a [pytest] section.
			cfg.pytest = firstOf(cfg.pytest, "pytest.ini (no [pytest] section)")
		}
	case "tox.ini":
		if s["pytest"] != nil {
			cfg.pytest = firstOf(cfg.pytest, "tox.ini [pytest]")
		}
	case "setup.cfg":
		if s["tool:pytest"] != nil {
			cfg.pytest = firstOf(cfg.pytest, "setup.cfg [tool:pytest]")
		}
		if m := s["mypy"]; m != nil {
			cfg.mypy = firstOf(cfg.mypy, "setup.cfg [mypy]")
			cfg.mypyFiles = cfg.mypyFiles || m["files"]
		}
	case "mypy.ini", ".mypy.ini":
		cfg.mypy = firstOf(cfg.mypy, name)
		cfg.mypyFiles = cfg.mypyFiles || s["mypy"]["files"]
	}
}
