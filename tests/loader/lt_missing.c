/* libiorigmissing.so: a dependency that is not on the loader path at test time. */
int iorigmissing_value(void);
int iorigmissing_value(void)
{
	return 42;
}
