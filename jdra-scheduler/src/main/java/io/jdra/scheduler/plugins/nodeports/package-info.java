/** Upstream's NodePorts plugin. */
package io.jdra.scheduler.plugins.nodeports;
