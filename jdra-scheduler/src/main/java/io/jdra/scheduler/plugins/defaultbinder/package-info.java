/** Upstream's DefaultBinder plugin. */
package io.jdra.scheduler.plugins.defaultbinder;
