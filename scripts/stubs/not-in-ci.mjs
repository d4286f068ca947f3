// Stands in for is-in-ci inside Ink. With CI set, Ink draws nothing until the app exits and turns off synchronized
// output; gar opens its full-screen UI only on a terminal, so a CI variable in a person's shell must not blank it.
export default false;
