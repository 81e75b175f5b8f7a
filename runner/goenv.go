package runner

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// maxGoEnvFile bounds how much of the go env file is read: `go env -w`
// writes a few lines, and a file the agent made huge is read no further.
const maxGoEnvFile = 1 << 20

// hasGoFlags reports whether base sets GOFLAGS to something go would use:
// go reads the go env file's GOFLAGS only when the variable is empty.
func hasGoFlags(base []string) bool {
	for _, kv := range base {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok && v != "" {
			return true
		}
	}
	return false
}

// goEnvFlags returns the go env file's path and the GOFLAGS it sets, as
// the go command finds them for a process with environment base: GOENV
// names the file ("off": none), else it is go/env in the user's config
// dir. The file is read in Go, as go reads it (cmd/go/internal/cfg): a
// `go env GOFLAGS` process costs about 3 ms of CPU per check (measured),
// reading the file 15 µs (BenchmarkGoEnvFlags).
func goEnvFlags(base []string) (file, flags string) {
	file = goEnvFile(base)
	if file == "" {
		return "", ""
	}
	f, err := os.Open(file)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, maxGoEnvFile))
	return file, goEnvValue(data, "GOFLAGS")
}

// goEnvValue is key's value in a go env file's contents: lines KEY=VALUE,
// the last one winning; lines without "=" or not starting with A-Z are
// skipped, as go skips them.
func goEnvValue(data []byte, key string) string {
	val := ""
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		i := bytes.IndexByte(line, '=')
		if i < 0 || line[0] < 'A' || 'Z' < line[0] {
			continue
		}
		if string(line[:i]) == key {
			val = string(line[i+1:])
		}
	}
	return val
}

// goEnvFile is the go env file's path for environment base, or "": as
// os.UserConfigDir computes it, from base rather than vbd's own
// environment.
func goEnvFile(base []string) string {
	env := map[string]string{}
	for _, kv := range base {
		if k, v, ok := strings.Cut(kv, "="); ok {
			switch k {
			case "GOENV", "XDG_CONFIG_HOME", "HOME", "AppData", "home":
				env[k] = v
			}
		}
	}
	if f := env["GOENV"]; f != "" {
		if f == "off" {
			return ""
		}
		return f
	}
	var dir string
	switch runtime.GOOS {
	case "windows":
		dir = env["AppData"]
	case "darwin", "ios":
		if env["HOME"] != "" {
			dir = filepath.Join(env["HOME"], "Library", "Application Support")
		}
	case "plan9":
		if env["home"] != "" {
			dir = filepath.Join(env["home"], "lib")
		}
	default:
		switch dir = env["XDG_CONFIG_HOME"]; {
		case dir == "" && env["HOME"] != "":
			dir = filepath.Join(env["HOME"], ".config")
		case !filepath.IsAbs(dir):
			dir = "" // go refuses a relative XDG_CONFIG_HOME, and reads no file
		}
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "go", "env")
}
