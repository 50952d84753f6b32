/** Upstream's NodeName plugin. */
package io.jdra.scheduler.plugins.nodename;
