package scale

import (
	"context"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
)

// The floor of each case, call for call what Terrane's engine makes for it
// with these test providers (which do not ask for plan_destroy):
//
//	apply from empty:   plan walk  Validate, Plan
//	                    apply walk Plan, Apply
//	plan, -refresh=false: Upgrade, Validate, Plan
//	plan:                 Upgrade, Read, Validate, Plan
//	plan, one change, -refresh=false: as plan, -refresh=false
//	one change, -refresh=false:
//	                    plan walk  Upgrade, Validate, Plan (every instance)
//	                    apply walk Upgrade (every unchanged instance);
//	                               Plan, Apply (the changed one)
//	destroy:            plan walk  Upgrade, Read
//	                    apply walk Apply (delete), dependents first

func (f *floor) applyFromEmpty(ctx context.Context) (time.Duration, error) {
	return timed(func() error {
		err := f.run(ctx, nil, false, func(ctx context.Context, w *walk, _ int, inst *floorInstance) error {
			if err := f.validate(ctx, w, inst); err != nil {
				return err
			}
			_, err := f.plan(ctx, w, inst, cty.NilVal)
			return err
		})
		if err != nil {
			return err
		}
		return f.run(ctx, nil, true, func(ctx context.Context, w *walk, _ int, inst *floorInstance) error {
			planned, err := f.plan(ctx, w, inst, cty.NilVal)
			if err != nil {
				return err
			}
			return f.apply(ctx, w, inst, cty.NilVal, planned, f.config(w, inst))
		})
	})
}

func (f *floor) planNoChanges(ctx context.Context, refresh bool) (time.Duration, error) {
	return timed(func() error {
		return f.run(ctx, nil, false, func(ctx context.Context, w *walk, _ int, inst *floorInstance) error {
			if err := f.upgrade(ctx, w, inst); err != nil {
				return err
			}
			if refresh {
				if err := f.read(ctx, w, inst); err != nil {
					return err
				}
			}
			if err := f.validate(ctx, w, inst); err != nil {
				return err
			}
			_, err := f.plan(ctx, w, inst, inst.state)
			return err
		})
	})
}

// planOneChange is a plan without refresh in which the first instance's
// size changed: one PlanResourceChange per instance, as with no change.
func (f *floor) planOneChange(ctx context.Context) (time.Duration, error) {
	f.instances[0].size = changedSize
	return f.planNoChanges(ctx, false)
}

// changedSize is the first instance's size after -var first_size=2.
const changedSize = 2

// changeOne changes the first instance's size and applies without refresh.
func (f *floor) changeOne(ctx context.Context) (time.Duration, error) {
	f.instances[0].size = changedSize
	return timed(func() error {
		if _, err := f.planNoChanges(ctx, false); err != nil {
			return err
		}
		return f.run(ctx, nil, false, func(ctx context.Context, w *walk, i int, inst *floorInstance) error {
			if i != 0 {
				return f.upgrade(ctx, w, inst)
			}
			planned, err := f.plan(ctx, w, inst, inst.state)
			if err != nil {
				return err
			}
			return f.apply(ctx, w, inst, inst.state, planned, f.config(w, inst))
		})
	})
}

func (f *floor) destroy(ctx context.Context) (time.Duration, error) {
	return timed(func() error {
		err := f.run(ctx, nil, false, func(ctx context.Context, w *walk, _ int, inst *floorInstance) error {
			if err := f.upgrade(ctx, w, inst); err != nil {
				return err
			}
			return f.read(ctx, w, inst)
		})
		if err != nil {
			return err
		}
		// Dependents go first: those without a base, in reverse order.
		order := make([]int, 0, len(f.instances))
		for i := len(f.instances) - 1; i >= 0; i-- {
			order = append(order, i)
		}
		return f.run(ctx, order, false, func(ctx context.Context, w *walk, _ int, inst *floorInstance) error {
			return f.deleteObject(ctx, w, inst)
		})
	})
}

// deleteObject is the ApplyResourceChange of a delete: planned null.
func (f *floor) deleteObject(ctx context.Context, w *walk, inst *floorInstance) error {
	resp := w.p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: widgetType, PriorState: inst.state, PlannedState: cty.NullVal(w.ty), Config: cty.NullVal(w.ty), PlannedPrivate: inst.private,
	})
	return resp.Diagnostics.Err()
}
