// Package winjob is vbd's one use of Windows job objects: a job that kills
// every process in it when its last handle closes (so when vbd dies, however
// it dies), a process put into it before it runs a single instruction
// (started suspended, assigned, then resumed), and the job's termination.
// The runner gives each check a job; the hook supervisor gives its worker
// one. It is built on Windows only; elsewhere process groups do this job.
package winjob
