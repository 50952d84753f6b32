/**
 * The DRA-aware pod scheduler (kube-scheduler of jdra). {@link io.jdra.scheduler.SchedulerServer}
 * starts one against any API server: informers feed the {@link
 * io.jdra.scheduler.cache.SchedulerCache} (nodes and the pods on them), the DRA manager (claims,
 * slices, classes, taint rules) and the {@link io.jdra.scheduler.queue.SchedulingQueue}; the loop
 * in {@link io.jdra.scheduler.Scheduler} pops a pod, runs the {@link
 * io.jdra.scheduler.SchedulingAlgorithm} (PreFilter, parallel Filter, Score), assumes the pod on
 * the chosen node, runs Reserve, and hands PreBind and Bind to binding workers.
 *
 * <p>Out of scope, as the issue says: preemption (DefaultPreemption), inter-pod affinity, topology
 * spread, volume plugins, balanced allocation, image locality, extenders, multiple profiles.
 */
package io.jdra.scheduler;
