package io.jdra.api;
