/**
 * The scheduling framework (upstream {@code pkg/scheduler/framework}): extension-point interfaces,
 * {@link io.jdra.scheduler.framework.Status} codes, {@link io.jdra.scheduler.framework.CycleState},
 * immutable {@link io.jdra.scheduler.framework.NodeInfo} and {@link
 * io.jdra.scheduler.framework.PodInfo}, cluster events with queueing hints, and {@link
 * io.jdra.scheduler.framework.Framework}, which runs one profile's plugins.
 *
 * <p>Threading: PreEnqueue runs on informer threads; PreFilter, PostFilter, Score, Reserve on the
 * scheduling thread; Filter on many threads at once for one pod; PreBind, Bind and Unreserve after
 * a binding failure on binding threads.
 */
package io.jdra.scheduler.framework;
