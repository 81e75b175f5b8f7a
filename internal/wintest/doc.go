// Package wintest holds what the Windows tests of runner and supervise
// share; it is built on Windows only.
package wintest
