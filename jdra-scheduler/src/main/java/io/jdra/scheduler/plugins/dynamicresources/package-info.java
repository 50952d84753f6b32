/**
 * Upstream's DynamicResources plugin (Kubernetes 1.36), lifecycle of one pod:
 *
 * <ol>
 *   <li>PreEnqueue: every claim the pod references exists, is not being deleted and, when generated
 *       from a template, is owned by the pod; otherwise the pod waits without an attempt until a
 *       claim event or the pod's {@code status.resourceClaimStatuses} changes.
 *   <li>PreFilter: resolves the claims; allocated ones must be reservable (fewer than 256
 *       consumers); unallocated ones need their DeviceClasses; one {@code Allocator} is built for
 *       the attempt over a consistent snapshot of {@link
 *       io.jdra.scheduler.plugins.dynamicresources.DraManager} (informer claims + claims the
 *       scheduler just wrote + in-flight allocations, under one lock) and the slices with
 *       DeviceTaintRules applied.
 *   <li>Filter (parallel over nodes): allocated claims' node selectors must match, and (with
 *       DRADeviceBindingConditions) their binding must neither have failed nor timed out; the
 *       unallocated ones are allocated for the node with {@code filterTimeout} (10 s; 0 disables;
 *       the gate DRASchedulerFilterTimeout). A node-local allocator failure is Unschedulable for
 *       this node; the timeout and any other allocator error are Errors for the attempt.
 *   <li>PostFilter (no node fits): deallocates one allocated claim no node could use that nobody
 *       else has reserved.
 *   <li>Score: the prioritized-list preference ({@code 8 - index} of the chosen subrequest).
 *   <li>Reserve: the node's allocations become in-flight; Unreserve drops them and this pod's
 *       {@code reservedFor} entry.
 *   <li>PreBind: finalizer {@code resource.kubernetes.io/delete-protection} (Update), then {@code
 *       status.allocation} and {@code status.reservedFor} (UpdateStatus), retried on conflict; the
 *       written claim replaces the in-flight allocation atomically. With
 *       DRADeviceBindingConditions, a new allocation carries {@code allocationTimestamp}, and
 *       PreBind records the event {@code BindingConditionsPending} and waits (5 s polls, {@code
 *       bindingTimeout} 600 s) until the devices' binding conditions are True; a True failure
 *       condition or the timeout fails the binding, and the next attempt's Filter and PostFilter
 *       deallocate the claim (see {@code BindingConditions}).
 * </ol>
 *
 * jdra addition: when no node fits, the FailedScheduling message ends with one sentence from the
 * allocator's explanation; the full per-node explanation is logged at V(5) and printed by {@code
 * jdra explain pod}.
 */
package io.jdra.scheduler.plugins.dynamicresources;
