/** Upstream's NodeAffinity plugin. */
package io.jdra.scheduler.plugins.nodeaffinity;
