/** The scheduling queue: activeQ, backoffQ and unschedulable pods with queueing hints. */
package io.jdra.scheduler.queue;
