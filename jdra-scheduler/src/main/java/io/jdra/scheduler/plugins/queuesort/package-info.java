/** Upstream's PrioritySort plugin. */
package io.jdra.scheduler.plugins.queuesort;
