//go:build windows

package winjob

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Job is a job object created with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: the
// kernel ends every process in it when the last handle to it closes,
// which happens when vbd exits or is killed (TerminateProcess, a crash).
// Processes cannot break away from it, and what they start is in it too.
type Job struct {
	mu     sync.Mutex
	handle windows.Handle
}

// New creates a job that kills its processes when it is closed.
func New() (*Job, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("create a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(h)
		return nil, fmt.Errorf("make the job object kill its processes on close: %w", err)
	}
	return &Job{handle: h}, nil
}

// Hold is a new job holding pid, which was started with StartFlags and is
// resumed in it. On an error pid is killed, having run nothing.
func Hold(pid int) (*Job, error) {
	j, err := New()
	if err != nil {
		kill(pid)
		return nil, err
	}
	if err := j.Adopt(pid); err != nil {
		_ = j.Close()
		return nil, err
	}
	return j, nil
}

// StartFlags are the creation flags a process to Adopt starts with: it is
// suspended, so that it runs nothing before it is in the job.
const StartFlags = windows.CREATE_SUSPENDED

// Adopt puts the process pid, started with StartFlags, into the job, then
// resumes it. On an error the process is killed: a process vbd cannot put
// in a job is one that could outlive it, and it has run nothing yet.
func (j *Job) Adopt(pid int) error {
	if err := j.assign(pid); err != nil {
		kill(pid)
		return err
	}
	if err := resume(pid); err != nil {
		kill(pid)
		return err
	}
	return nil
}

func (j *Job) assign(pid int) error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return fmt.Errorf("open process %d: %w", pid, err)
	}
	defer func() { _ = windows.CloseHandle(p) }()
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.handle == 0 {
		return errors.New("the job object is closed")
	}
	if err := windows.AssignProcessToJobObject(j.handle, p); err != nil {
		return fmt.Errorf("put process %d in a job object: %w", pid, err)
	}
	return nil
}

// resume resumes every thread of pid (a process started suspended has one).
func resume(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("list the threads of process %d: %w", pid, err)
	}
	defer func() { _ = windows.CloseHandle(snap) }()
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != uint32(pid) {
			continue
		}
		t, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread %d of process %d: %w", te.ThreadID, pid, err)
		}
		_, err = windows.ResumeThread(t)
		_ = windows.CloseHandle(t)
		if err != nil {
			return fmt.Errorf("resume process %d: %w", pid, err)
		}
		resumed++
	}
	if resumed == 0 {
		return fmt.Errorf("resume process %d: no thread of it was found", pid)
	}
	return nil
}

// stillActive is STILL_ACTIVE, the exit code of a process that runs.
const stillActive = 259

// Running reports whether pid is a process that has not ended (one that
// cannot be opened counts as ended).
func Running(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer func() { _ = windows.CloseHandle(h) }()
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}

// TerminatePID ends the process pid with exit code code (TerminateProcess:
// no handler of its runs, as with SIGKILL).
func TerminatePID(pid int, code uint32) error {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer func() { _ = windows.CloseHandle(h) }()
	return windows.TerminateProcess(h, code)
}

func kill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
		_ = p.Release()
	}
}

// Terminate ends every process in the job now, each with exit code code.
func (j *Job) Terminate(code uint32) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.handle == 0 {
		return nil
	}
	return windows.TerminateJobObject(j.handle, code)
}

// basicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which
// x/sys/windows does not declare.
type basicAccounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses                uint32
	ActiveProcesses, TotalTerminatedProcesses          uint32
}

// Active is how many processes run in the job (0 when it is closed or
// cannot be asked).
func (j *Job) Active() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.handle == 0 {
		return 0
	}
	var info basicAccounting
	if err := windows.QueryInformationJobObject(j.handle, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0
	}
	return int(info.ActiveProcesses)
}

// maxListed bounds the process list read of a job.
const maxListed = 1024

// processIDList is JOBOBJECT_BASIC_PROCESS_ID_LIST with room for maxListed.
type processIDList struct {
	Assigned, Listed uint32
	IDs              [maxListed]uintptr
}

// PIDs lists the processes in the job, at most maxListed of them.
func (j *Job) PIDs() []int {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.handle == 0 {
		return nil
	}
	list := new(processIDList)
	if err := windows.QueryInformationJobObject(j.handle, windows.JobObjectBasicProcessIdList,
		uintptr(unsafe.Pointer(list)), uint32(unsafe.Sizeof(*list)), nil); err != nil && !errors.Is(err, windows.ERROR_MORE_DATA) {
		return nil
	}
	n := min(int(list.Listed), maxListed)
	out := make([]int, 0, n)
	for _, id := range list.IDs[:n] {
		out = append(out, int(id))
	}
	return out
}

// Close closes vbd's handle to the job, which kills what is left in it
// (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE) unless another handle is open.
func (j *Job) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.handle == 0 {
		return nil
	}
	err := windows.CloseHandle(j.handle)
	j.handle = 0
	return err
}
