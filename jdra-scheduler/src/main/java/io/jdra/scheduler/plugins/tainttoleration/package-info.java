/** Upstream's TaintToleration plugin. */
package io.jdra.scheduler.plugins.tainttoleration;
