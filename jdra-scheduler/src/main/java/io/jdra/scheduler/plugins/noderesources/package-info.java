/** Upstream's NodeResourcesFit plugin (Fit, LeastAllocated score). */
package io.jdra.scheduler.plugins.noderesources;
