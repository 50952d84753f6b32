/**
 * Work queues with client-go's contract ({@code util/workqueue}): {@link
 * io.jdra.runtime.workqueue.WorkQueue} (dedup, one worker per key, re-queue after done), {@link
 * io.jdra.runtime.workqueue.DelayingQueue}, {@link io.jdra.runtime.workqueue.RateLimitingQueue},
 * the {@link io.jdra.runtime.workqueue.RateLimiters}, {@code workqueue_*} metrics ({@link
 * io.jdra.runtime.workqueue.WorkQueueMetrics}) and the deterministic {@link
 * io.jdra.runtime.workqueue.MockQueue} for unit tests. Create queues with {@link
 * io.jdra.runtime.workqueue.WorkQueues}.
 */
package io.jdra.runtime.workqueue;
