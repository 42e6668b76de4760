// Package rpcbench measures raw provider round trips through Terrane's
// plugin client — PlanResourceChange, ApplyResourceChange, and the
// validate+plan+plan+apply sequence one resource instance costs — against
// real test provider processes, one stream and eight in parallel. It reports
// time per call and the peak memory of Terrane's process and of the
// provider's separately: the floor the engine is measured against.
//
//	go test -bench . ./bench/rpcbench
package rpcbench
