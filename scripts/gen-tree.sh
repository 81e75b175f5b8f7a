#!/bin/sh
# gen-tree.sh DIR N: a git repository of about N files shaped like a
# monorepo (Go modules, npm packages, Makefiles, vendored and ignored
# directories), for benchmarks.
set -eu
dir=$1
n=$2
mkdir -p "$dir"
cd "$dir"
git init -q
printf 'node_modules/\nbuild/\n' >.gitignore
projects=50
per=$((n / projects))
p=0
while [ $p -lt $projects ]; do
	d="svc$p"
	mkdir -p "$d/pkg" "$d/node_modules/dep" "$d/vendor/x"
	if [ $((p % 2)) -eq 0 ]; then
		printf 'module example.com/%s\n\ngo 1.26\n' "$d" >"$d/go.mod"
	else
		printf '{"name":"%s","scripts":{"test":"node --test","lint":"eslint ."}}\n' "$d" >"$d/package.json"
	fi
	[ $((p % 5)) -eq 0 ] && printf '.PHONY: test\ntest:\n\tgo test ./...\n' >"$d/Makefile"
	i=0
	while [ $i -lt "$per" ]; do
		echo "package pkg // $i" >"$d/pkg/f$i.go"
		i=$((i + 1))
	done
	echo '{}' >"$d/node_modules/dep/package.json"
	p=$((p + 1))
done
git add -A >/dev/null
git -c user.name=b -c user.email=b@b commit -qm gen
git ls-files | wc -l
