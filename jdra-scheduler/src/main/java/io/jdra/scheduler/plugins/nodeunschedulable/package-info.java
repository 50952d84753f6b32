/** Upstream's NodeUnschedulable plugin. */
package io.jdra.scheduler.plugins.nodeunschedulable;
